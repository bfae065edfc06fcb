import type { ScheduledTopicReset, TopicReset } from '../../openapi/generated/control-types.js';
import type { Clock, ClockTimer } from '../clock.js';
import { cacheNotFound } from '../errors.js';
import type { TopicStore } from './store.js';
import type { TopicParking } from '../service/parking.js';
import { topicKey } from './topic-key.js';
import type { Log } from '../logging.js';

// Page changes on demand: a topic evicted and recreated now, after the message numbered K, or
// after some clock time. Each is logged with why, since every waiting subscriber of the topic
// gets a discontinuity from it.

export type { ScheduledTopicReset, TopicReset };

interface Schedule {
  view(): ScheduledTopicReset;
  cancel(): void;
  /** The number after which it fires, for a schedule by number. */
  afterSequenceNumber?: number;
  fire?(): void;
}

export class PageChanges {
  // One schedule per topic: a new one replaces the old.
  private readonly schedules = new Map<string, Schedule>();

  constructor(
    private readonly store: TopicStore,
    private readonly parking: TopicParking,
    private readonly clock: Clock,
    private readonly log: Log,
  ) {}

  /** The topic changes page now (it is created first if it does not exist). */
  changeNow(cache: string, topic: string, why: string): TopicReset {
    this.requireCache(cache);
    const waiting = this.parking.count(cache, topic);
    const previousPage = this.store.use(cache, topic).page;
    const page = this.store.changePage(cache, topic);
    // Waiting subscribers get the discontinuity with the new page's first message (or at once, alone).
    const answered = waiting - this.parking.count(cache, topic);
    this.log.info(
      { cache, topic, previousPage, page, waitingSubscribers: waiting, why },
      `page change: ${cache}/${topic} page ${previousPage} -> ${page} (${why}); ${waiting} waiting subscriber(s) get a discontinuity` +
        (answered === waiting ? ' now' : " with the new page's first message"),
    );
    return { cache, topic, previousPage, page };
  }

  /** The topic changes page right after the message numbered `sequenceNumber` is published. */
  afterSequenceNumber(cache: string, topic: string, sequenceNumber: number, why: string): ScheduledTopicReset {
    this.requireCache(cache);
    this.store.use(cache, topic);
    const key = topicKey(cache, topic);
    const schedule: Schedule = {
      view: () => ({ cache, topic, page: this.pageOf(cache, topic), afterSequenceNumber: sequenceNumber }),
      cancel: () => undefined,
      afterSequenceNumber: sequenceNumber,
      fire: () => {
        this.unschedule(key);
        this.changeScheduled(cache, topic, `${why}: scheduled after message ${sequenceNumber}`);
      },
    };
    this.replace(key, schedule);
    return schedule.view();
  }

  /** A message was numbered (the store says so): a change scheduled after it happens now. */
  published(cache: string, topic: string, sequenceNumber: number): void {
    if (this.schedules.size === 0) return;
    const schedule = this.schedules.get(topicKey(cache, topic));
    if (schedule?.afterSequenceNumber === sequenceNumber) schedule.fire?.();
  }

  /** The topic changes page once the clock has moved `afterMs` forward. */
  afterTime(cache: string, topic: string, afterMs: number, why: string): ScheduledTopicReset {
    this.requireCache(cache);
    this.store.use(cache, topic);
    const key = topicKey(cache, topic);
    // One reading of the clock: the time shown is exactly the time the change fires.
    const due = this.clock.now() + afterMs;
    const at = new Date(due).toISOString();
    const timer: ClockTimer = this.clock.scheduleAt(due, () => {
      this.schedules.delete(key);
      this.changeScheduled(cache, topic, `${why}: scheduled at ${at}`);
    });
    const schedule: Schedule = {
      view: () => ({ cache, topic, page: this.pageOf(cache, topic), at }),
      cancel: () => timer.cancel(),
    };
    this.replace(key, schedule);
    return schedule.view();
  }

  /** Cancels the schedules of a cache's topics (the cache is deleted). */
  forgetCache(cache: string): void {
    for (const [key, schedule] of [...this.schedules])
      if (schedule.view().cache === cache) {
        schedule.cancel();
        this.schedules.delete(key);
      }
  }

  scheduled(): ScheduledTopicReset[] {
    return [...this.schedules.values()].map((s) => s.view());
  }

  /** Cancels every schedule (the emulator's reset; the store forgets the topics itself). */
  reset(): void {
    for (const schedule of this.schedules.values()) schedule.cancel();
    this.schedules.clear();
  }

  /**
   * A scheduled change, made in a clock timer or a publish's wake: whatever stops it (its cache
   * deleted meanwhile, a shared store out of reach) is logged, never thrown into the timer.
   */
  private changeScheduled(cache: string, topic: string, why: string): void {
    try {
      this.changeNow(cache, topic, why);
    } catch (error) {
      this.log.warn(
        { cache, topic, why, error: error instanceof Error ? error.message : String(error) },
        `page change: ${cache}/${topic} not changed (${why}): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private pageOf(cache: string, topic: string): number {
    return this.store.position(cache, topic)?.page ?? 0;
  }

  private requireCache(cache: string): void {
    if (!this.store.hasCache(cache)) throw cacheNotFound(cache);
  }

  private replace(key: string, schedule: Schedule): void {
    this.unschedule(key);
    this.schedules.set(key, schedule);
  }

  private unschedule(key: string): void {
    this.schedules.get(key)?.cancel();
    this.schedules.delete(key);
  }
}
