import { planRead, type Cursor, type DiscontinuityMode, type FirstSubscribe, type TopicPosition } from './read-plan.js';
import { RetentionBuffer } from './retention.js';
import { storeMessage, type MessageValue, type StoredMessage } from './message.js';
import type { ReadAnswer } from './subscriber.js';
import type { RetainedMessage } from './content.js';
import type { TopicNews } from './topic-news.js';
import { numbersExhausted } from '../errors.js';

export interface TopicSettings {
  retention: number;
  maxBatch: number;
  firstSubscribe: FirstSubscribe;
  discontinuity: DiscontinuityMode;
}

export interface TopicSnapshot {
  cache: string;
  topic: string;
  page: number;
  nextSequenceNumber: number;
  firstRetained: number | null;
  lastRetained: number | null;
  retainedCount: number;
}

/** A message as a read delivers it: a stream sends them one by one. */
export interface DeliveredMessage {
  sequenceNumber: number;
  value: RetainedMessage['value'];
  publisher: string;
}

/**
 * One instance line of a topic: its page, numbering and retained messages. Plain data behind a
 * store; who waits on it is the core's (service/parking.ts), told through `onChanged`.
 */
export class Topic {
  private nextSeq = 1;
  private readonly retained: RetentionBuffer<StoredMessage>;
  /** Told after every change a waiting subscriber may be answered by: a message numbered (its number), a new page. */
  onChanged: ((published?: number) => void) | undefined;

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

  get page(): number {
    return this.currentPage;
  }

  get position(): TopicPosition {
    return { page: this.currentPage, oldest: this.retained.firstSeq, next: this.nextSeq };
  }

  /** Numbers and keeps a message at once, returning its number; `publisher` is the publishing token's id ('' for none). */
  publish(value: MessageValue, publisher = ''): number {
    const seq = this.nextSeq;
    if (seq >= Number.MAX_SAFE_INTEGER) throw numbersExhausted('sequence number');
    this.retained.push(storeMessage(this.currentPage, seq, value, publisher));
    this.nextSeq = seq + 1;
    if (this.news?.active) this.news.published(this, seq, value);
    this.onChanged?.(seq);
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
   * subscribers are told, and keep waiting for the new page's first item (answered with a
   * discontinuity before it), unless discontinuities are answered alone.
   */
  changePage(newPage: number): void {
    if (newPage <= this.currentPage) throw new RangeError(`a new page must be greater than ${this.currentPage}`);
    this.currentPage = newPage;
    this.nextSeq = 1;
    this.retained.clear(1);
    if (this.news?.active) this.news.pageChanged(this);
    this.onChanged?.();
  }

  /**
   * Takes the page a shared store gave this topic's instance (another replica created it first),
   * while nothing is numbered on it yet; waiting subscribers are planned again.
   */
  adoptPage(page: number): void {
    if (this.nextSeq !== 1 || this.retained.size !== 0)
      throw new RangeError('only a topic with no messages adopts a page');
    this.currentPage = page;
    this.onChanged?.();
  }

  /** What a read delivers, each with its publisher: for a stream, which sends them one by one. */
  delivered(read: ReadAnswer): DeliveredMessage[] {
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
   * Holds saved content (a snapshot's, or a shared store's when this copy fell behind): the
   * messages are numbered up to `nextSequenceNumber - 1`, on this topic's page; only the newest
   * `retention` are kept.
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
    this.onChanged?.();
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
    };
  }
}
