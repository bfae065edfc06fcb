import { planRead, type Cursor, type DiscontinuityMode, type FirstSubscribe, type TopicPosition } from './read-plan.js';
import { RetentionBuffer } from './retention.js';
import { storeMessage, type MessageValue, type StoredMessage } from './message.js';
import type { ReadAnswer, WaitingSubscriber } from './subscriber.js';
import type { RetainedMessage } from './content.js';
import type { TopicNews } from './topic-news.js';
import { numbersExhausted } from '../errors.js';

export interface TopicSettings {
  retention: number;
  maxBatch: number;
  firstSubscribe: FirstSubscribe;
  discontinuity: DiscontinuityMode;
}

/** Up to this many waiting subscribers are answered within the publish itself. */
const WAKE_AT_ONCE = 8;

export interface TopicSnapshot {
  cache: string;
  topic: string;
  page: number;
  nextSequenceNumber: number;
  firstRetained: number | null;
  lastRetained: number | null;
  retainedCount: number;
  waitingSubscribers: number;
}

/** One instance line of a topic: its page, numbering, retained messages and waiting subscribers. */
export class Topic {
  private nextSeq = 1;
  private readonly retained: RetentionBuffer<StoredMessage>;
  private readonly parked = new Set<WaitingSubscriber>();
  private wakeScheduled = false;
  /** performance.now() of the first publish whose waiting subscribers are not answered yet; 0 for none. */
  private wakeSince = 0;
  /** Listeners told of every publish (after numbering), e.g. scheduled page changes. */
  onPublished: ((seq: number) => void) | undefined;
  /** Told, per subscriber a publish woke, the real milliseconds since that publish (metrics). */
  onWoke: ((latencyMs: number) => void) | undefined;

  constructor(
    readonly cache: string,
    readonly name: string,
    private currentPage: number,
    private readonly settings: TopicSettings,
    /** The event stream (dashboard, journal); absent in tests of the topic alone. */
    private readonly news?: TopicNews,
  ) {
    this.retained = new RetentionBuffer(settings.retention);
  }

  /** Subscribers parked on this topic. */
  get waiting(): ReadonlySet<WaitingSubscriber> {
    return this.parked;
  }

  /** Parks a subscriber until something is there for its cursor (or it is unparked). */
  park(subscriber: WaitingSubscriber): void {
    this.parked.add(subscriber);
  }

  /** Forgets a parked subscriber (it timed out or went away). Returns whether it was parked. */
  unpark(subscriber: WaitingSubscriber): boolean {
    return this.parked.delete(subscriber);
  }

  get page(): number {
    return this.currentPage;
  }

  get position(): TopicPosition {
    return { page: this.currentPage, oldest: this.retained.firstSeq, next: this.nextSeq };
  }

  /**
   * Numbers and retains the message at once. Up to WAKE_AT_ONCE waiting subscribers are answered
   * right away; more are answered on the next turn of the event loop, so the publisher's 204 never
   * waits for a fan-out, and publishes of that turn reach each subscriber in one response.
   * Returns its number.
   */
  /** Numbers and keeps a message; `publisher` is the publishing token's id ('' for none). */
  publish(value: MessageValue, publisher = ''): number {
    const seq = this.nextSeq;
    if (seq >= Number.MAX_SAFE_INTEGER) throw numbersExhausted('sequence number');
    this.retained.push(storeMessage(this.currentPage, seq, value, publisher));
    this.nextSeq = seq + 1;
    if (this.news?.active) this.news.published(this, seq, value);
    this.scheduleWake();
    this.onPublished?.(seq);
    return seq;
  }

  /**
   * The answer for a cursor, or undefined when the request must wait. `maxItems` caps it below
   * the batch size (an "after N items" fault lets N through): the plan is made for that many.
   */
  read(cursor: Cursor, maxItems = Infinity): ReadAnswer | undefined {
    const { firstSubscribe, maxBatch, discontinuity } = this.settings;
    const plan = planRead(this.position, cursor, firstSubscribe, Math.min(maxBatch, maxItems), discontinuity);
    if (plan.kind === 'wait') return undefined;
    const parts = this.retained.slice(plan.from, plan.count).map((m) => m.element);
    if (plan.discontinuity) parts.unshift(JSON.stringify({ discontinuity: plan.discontinuity }));
    return {
      body: `{"items":[${parts.join(',')}]}`,
      items: plan.count,
      page: this.currentPage,
      from: plan.from,
      discontinuity: plan.discontinuity,
    };
  }

  /**
   * The topic is evicted and recreated: a new page, numbering from 1, nothing retained. Waiting
   * subscribers keep waiting for the new page's first item (answered with a discontinuity before
   * it), unless discontinuities are answered alone.
   */
  changePage(newPage: number): void {
    if (newPage <= this.currentPage) throw new RangeError(`a new page must be greater than ${this.currentPage}`);
    this.currentPage = newPage;
    this.nextSeq = 1;
    this.retained.clear(1);
    if (this.news?.active) this.news.pageChanged(this);
    this.wakeWaiting();
  }

  /**
   * Takes the page a shared store gave this topic's instance (another replica created it first),
   * while nothing is numbered on it yet; waiting subscribers are planned again.
   */
  adoptPage(page: number): void {
    if (this.nextSeq !== 1 || this.retained.size !== 0)
      throw new RangeError('only a topic with no messages adopts a page');
    this.currentPage = page;
    this.wakeWaiting();
  }

  /** The messages a read delivered, with their values (for a door that builds its own items: gRPC). Call it as the read is answered. */
  messagesOf(read: ReadAnswer): RetainedMessage[] {
    if (read.items === 0) return [];
    return this.retained
      .slice(read.from, read.items)
      .map((message) => ({ sequenceNumber: message.sequenceNumber, value: message.value }));
  }

  /** What a read delivers, each with its publisher: for a stream, which sends them one by one. */
  itemsOf(read: ReadAnswer): { sequenceNumber: number; value: RetainedMessage['value']; publisher: string }[] {
    if (read.items === 0) return [];
    return this.retained.slice(read.from, read.items).map((message) => ({
      sequenceNumber: message.sequenceNumber,
      value: message.value,
      publisher: message.publisher,
    }));
  }

  /** The retained messages, oldest first, with their values as delivered. */
  retainedMessages(): RetainedMessage[] {
    return this.retained
      .slice(this.retained.firstSeq, this.retained.size)
      .map((message) => ({ sequenceNumber: message.sequenceNumber, value: message.value }));
  }

  /**
   * Loads saved content into a topic nobody has used yet: the messages are numbered up to
   * `nextSequenceNumber - 1`, on this topic's page; only the newest `retention` are kept.
   */
  restore(nextSequenceNumber: number, values: readonly MessageValue[], publishers?: readonly string[]): void {
    const from = Math.max(0, values.length - this.retained.capacity);
    const kept = values.slice(from);
    const first = nextSequenceNumber - kept.length;
    this.retained.clear(first);
    kept.forEach((value, i) =>
      this.retained.push(storeMessage(this.currentPage, first + i, value, publishers?.[from + i])),
    );
    this.nextSeq = nextSequenceNumber;
  }

  snapshot(): TopicSnapshot {
    const count = this.retained.size;
    return {
      cache: this.cache,
      topic: this.name,
      page: this.currentPage,
      nextSequenceNumber: this.nextSeq,
      firstRetained: count ? this.retained.firstSeq : null,
      lastRetained: count ? this.nextSeq - 1 : null,
      retainedCount: count,
      waitingSubscribers: this.parked.size,
    };
  }

  private scheduleWake(): void {
    if (this.wakeScheduled || this.parked.size === 0) return;
    if (this.onWoke && this.wakeSince === 0) this.wakeSince = performance.now();
    // A few subscribers are answered at once (a turn later costs them latency); many are
    // answered on the next turn, so the publisher's 204 does not wait for the fan-out.
    if (this.parked.size <= WAKE_AT_ONCE) return this.wakeWaiting();
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      this.wakeWaiting();
    });
  }

  // Subscribers waiting on the same cursor (and cap) get the same answer: read once per cursor.
  private wakeWaiting(): void {
    if (this.parked.size === 0) return;
    const answers = new Map<string, ReadAnswer | undefined>();
    for (const subscriber of [...this.parked]) {
      const { sequenceNumber, sequencePage, askedFor } = subscriber.cursor;
      const maxItems = subscriber.maxItems;
      const key = `${sequenceNumber}:${sequencePage}:${askedFor ?? ''}:${maxItems}`;
      let read = answers.get(key);
      if (read === undefined && !answers.has(key)) {
        read = this.read(subscriber.cursor, maxItems);
        answers.set(key, read);
      }
      if (read === undefined) continue;
      this.unpark(subscriber);
      subscriber.answer(read);
      if (this.wakeSince !== 0) this.onWoke?.(performance.now() - this.wakeSince);
    }
    this.wakeSince = 0;
  }
}
