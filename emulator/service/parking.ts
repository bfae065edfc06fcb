import type { Cursor } from '../topics/read-plan.js';
import type { ReadAnswer, WaitingSubscriber } from '../topics/subscriber.js';

// Subscribers parked on a topic until something is there for their cursor: a long-poll for its
// whole wait, a stream whenever it has caught up. The store keeps the topics as data and says
// when one changes (`changed`); parking reads it again for whoever waits on it. A publish answers
// up to WAKE_AT_ONCE of them within itself; more are answered on the next turn of the event loop,
// so the publisher's answer never waits for a fan-out, and the publishes of that turn reach each
// subscriber in one answer. A new page answers them at once.

/** Up to this many waiting subscribers are answered within the publish itself. */
const WAKE_AT_ONCE = 8;

/** How parking reads a topic for a cursor: the store's `read`. */
export type TopicRead = (cache: string, topic: string, cursor: Cursor, maxItems: number) => ReadAnswer | undefined;

interface Parked {
  readonly subscribers: Set<WaitingSubscriber>;
  wakeScheduled: boolean;
  /** performance.now() of the first publish whose waiting subscribers are not answered yet; 0 for none. */
  wakeSince: number;
}

export class TopicParking {
  // By cache, then topic: a publish looks its topic up without building a key.
  private readonly byCache = new Map<string, Map<string, Parked>>();
  private wakeObserver: ((latencyMs: number) => void) | undefined;

  constructor(private readonly read: TopicRead) {}

  /** Parks a subscriber until something is there for its cursor (or it is unparked). */
  park(cache: string, topic: string, subscriber: WaitingSubscriber): void {
    let topics = this.byCache.get(cache);
    if (topics === undefined) this.byCache.set(cache, (topics = new Map<string, Parked>()));
    let parked = topics.get(topic);
    if (parked === undefined)
      topics.set(topic, (parked = { subscribers: new Set(), wakeScheduled: false, wakeSince: 0 }));
    parked.subscribers.add(subscriber);
  }

  /** Forgets a parked subscriber (answered, timed out, gone). Returns whether it was parked. */
  unpark(cache: string, topic: string, subscriber: WaitingSubscriber): boolean {
    const topics = this.byCache.get(cache);
    const parked = topics?.get(topic);
    if (parked === undefined || !parked.subscribers.delete(subscriber)) return false;
    if (parked.subscribers.size === 0 && !parked.wakeScheduled) {
      topics!.delete(topic);
      if (topics!.size === 0) this.byCache.delete(cache);
    }
    return true;
  }

  /** How many are parked on the topic now. */
  count(cache: string, topic: string): number {
    return this.byCache.get(cache)?.get(topic)?.subscribers.size ?? 0;
  }

  /** The store changed a topic: a message numbered (`published`), or a new page (answered at once). */
  changed(cache: string, topic: string, published?: number): void {
    const parked = this.byCache.get(cache)?.get(topic);
    if (parked === undefined || parked.subscribers.size === 0) return;
    if (published === undefined) return this.wake(cache, topic, parked);
    if (parked.wakeScheduled) return;
    if (this.wakeObserver && parked.wakeSince === 0) parked.wakeSince = performance.now();
    if (parked.subscribers.size <= WAKE_AT_ONCE) return this.wake(cache, topic, parked);
    parked.wakeScheduled = true;
    setImmediate(() => {
      parked.wakeScheduled = false;
      this.wake(cache, topic, parked);
      if (parked.subscribers.size === 0) this.unparkedAll(cache, topic, parked);
    });
  }

  /** Tells `observer`, per subscriber a publish wakes, the real milliseconds since that publish (metrics). */
  observeWakes(observer: ((latencyMs: number) => void) | undefined): void {
    this.wakeObserver = observer;
  }

  // Subscribers waiting on the same cursor (and cap) get the same answer: read once per cursor.
  private wake(cache: string, topic: string, parked: Parked): void {
    const answers = new Map<string, ReadAnswer | undefined>();
    for (const subscriber of [...parked.subscribers]) {
      const { sequenceNumber, sequencePage, askedFor } = subscriber.cursor;
      const maxItems = subscriber.maxItems;
      const key = `${sequenceNumber}:${sequencePage}:${askedFor ?? ''}:${maxItems}`;
      let read = answers.get(key);
      if (read === undefined && !answers.has(key)) {
        read = this.read(cache, topic, subscriber.cursor, maxItems);
        answers.set(key, read);
      }
      if (read === undefined) continue;
      this.unpark(cache, topic, subscriber);
      subscriber.answer(read);
      if (parked.wakeSince !== 0) this.wakeObserver?.(performance.now() - parked.wakeSince);
    }
    parked.wakeSince = 0;
  }

  // A scheduled wake kept the topic's entry while it was due; it goes once nobody is parked on it.
  private unparkedAll(cache: string, topic: string, parked: Parked): void {
    const topics = this.byCache.get(cache);
    if (topics?.get(topic) !== parked) return;
    topics.delete(topic);
    if (topics.size === 0) this.byCache.delete(cache);
  }
}
