import type { Principal } from '../auth/authenticator.js';
import type { Clock, ClockTimer } from '../clock.js';
import { EmulatorError } from '../errors.js';
import type { DeliveryWatch } from '../faults/deliveries.js';
import type { AccountLimits } from '../limits/account-limits.js';
import type { Effect, RequestFacts } from '../requests.js';
import { waitingCursor, type Cursor } from '../topics/read-plan.js';
import type { TopicStore } from '../topics/store.js';
import { EMPTY_READ, type ReadAnswer, type WaitingSubscriber } from '../topics/subscriber.js';
import type { WaitingEntry, WaitingSubscribers } from '../waiting.js';
import type { TopicParking } from './parking.js';

// One subscription, whichever door it came through. A long-poll (the HTTP API's GET) is a
// subscription whose sink takes one answer, or its timeout's empty one; a Subscribe stream (gRPC,
// gRPC-web) is the same subscription whose sink stays open, with heartbeats while it waits. This
// object owns what both share: the cursor and its reads (the store's read, planRead), parking on
// its topic, the one registry of waiting subscribers, the "after N items" gate, the account limits'
// count of delivered items, "while waiting" interruptions, and how it ends (an answer, a reset,
// shutdown or a deleted cache, its client leaving). Whichever comes first settles it, once. A
// door supplies a sink and translates what the sink is given; it decides nothing.

/** What a door does with what a subscription delivers. */
export interface SubscriptionSink {
  /** A read leaves: a long-poll's one answer (maybe empty); a stream's discontinuity and items. */
  deliver(read: ReadAnswer): void;
  /** An effect ends it (a "while waiting" fault, an armed "after N items" rule): the door answers with it. */
  fail(effect: Effect): void;
  /**
   * A stream ends with nothing more (a reset, shutdown, its cache deleted); with `why`, the door
   * says why as it ends (shutdown: UNAVAILABLE). A long-poll gets an empty `deliver` instead.
   */
  end(why?: EmulatorError): void;
  /** Who subscribes, as the journal names it (never the credential); worked out when asked. */
  readonly client: string | null;
  /** A stream, while it waits. */
  heartbeat?(): void;
  /** A stream: false while the consumer's buffer is full; the subscription waits for `onDrain`. */
  readonly writable?: boolean;
  onDrain?(resume: () => void): void;
  /** Resolves once the answer has left (shutdown waits on it, bounded). */
  flushed?(): Promise<void>;
}

/** A long-poll ends after one answer or its timeout (0: none); a stream goes on, with heartbeats. */
export type SubscriptionShape = { kind: 'long-poll'; timeoutMs: number } | { kind: 'stream'; heartbeatMs: number };

/** What a subscription needs of the core. */
export interface SubscriptionServices {
  clock: Clock;
  store: TopicStore;
  parking: TopicParking;
  waiting: WaitingSubscribers;
  limits: AccountLimits;
}

export class Subscription implements WaitingSubscriber, WaitingEntry {
  cursor: Cursor;
  /** When it opened (a stream) or started waiting (a long-poll), on the emulator's clock. */
  since: number;
  /** Settled: off its topic and the registry, its timers cancelled; nothing more reaches it. */
  private ended = false;
  /** A read held while the "after N items" gate decides whether it may leave. */
  private held = false;
  private entered = false;
  private timer: ClockTimer | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private cleanups: (() => void)[] | undefined;

  constructor(
    private readonly services: SubscriptionServices,
    start: Cursor,
    /** Its cache and topic among them: the topic is the store's, used already (`TopicStore.use`). */
    readonly facts: RequestFacts,
    private readonly sink: SubscriptionSink,
    private readonly shape: SubscriptionShape,
    /** The "after N items" fault rules it counts towards (faults/deliveries.ts). */
    private readonly deliveries?: DeliveryWatch,
  ) {
    this.cursor = start;
    this.since = services.clock.now();
  }

  get client(): string | null {
    return this.sink.client;
  }

  /** The most items a read may carry now: Infinity, unless an "after N items" rule counts it. */
  get maxItems(): number {
    return this.deliveries?.maxItems ?? Infinity;
  }

  get isOpen(): boolean {
    return !this.ended;
  }

  /**
   * It ends, with `expired_token`, when the token that opened it expires on the emulator's clock
   * (a withdrawal ends it through the registry, WaitingSubscribers.endToken).
   */
  endsWith(principal: Principal): void {
    if (principal.kind !== 'token' || this.ended) return;
    const timer = this.services.clock.scheduleAt(principal.expiresAtMs, () =>
      this.interrupt({ decidedBy: { kind: 'token' }, error: new EmulatorError('expired_token') }),
    );
    this.onEnd(() => timer.cancel());
  }

  /** A long-poll: answers at once when its cursor has something (true), else leaves it to `park`. */
  answerNow(): boolean {
    const read = this.read();
    if (read === undefined) return false;
    this.settle();
    this.offer(read);
    return true;
  }

  /** A long-poll: waits on its topic until a publish, its timeout, a fault, a reset or its client ends it. */
  park(): void {
    if (this.ended) return;
    this.waitHere();
    this.since = this.services.clock.now();
    this.enter();
    if (this.shape.kind === 'long-poll' && this.shape.timeoutMs > 0)
      this.timer = this.services.clock.schedule(this.shape.timeoutMs, () => this.answer(EMPTY_READ));
  }

  /** A stream: counted as waiting for its whole life; opens with a heartbeat (the Go SDK refuses a stream that does not), then delivers. */
  open(): void {
    this.sink.heartbeat?.();
    this.pump();
    // Entered once parked, so that the event stream hears it among its topic's waiting subscribers.
    this.enter();
  }

  /** Its topic has something for its cursor (or a long-poll's timeout: the empty read). */
  answer(read: ReadAnswer): void {
    if (this.ended) return;
    if (this.shape.kind === 'long-poll') {
      this.settle();
      this.offer(read);
      return;
    }
    this.stopHeartbeat();
    if (this.offer(read)) this.pump();
  }

  /** Ends it now with an effect; false when it had ended already. */
  interrupt(effect: Effect): boolean {
    if (!this.settle()) return false;
    this.sink.fail(effect);
    return true;
  }

  /** Ends it with nothing more: a long-poll's empty answer, a stream's end (a reset, shutdown, a deleted cache), `why` told to a stream. */
  close(why?: EmulatorError): void {
    if (!this.settle()) return;
    if (this.shape.kind === 'long-poll') this.sink.deliver(EMPTY_READ);
    else this.sink.end(why);
  }

  /** Its client went away: it ends without an answer (the door lets go of the connection or call). */
  abandon(): boolean {
    return this.settle();
  }

  onEnd(cleanup: () => void): void {
    if (this.ended) return cleanup();
    (this.cleanups ??= []).push(cleanup);
  }

  flushed(): Promise<void> {
    return this.sink.flushed?.() ?? Promise.resolve();
  }

  private enter(): void {
    if (this.entered || this.ended) return;
    this.entered = true;
    this.services.waiting.enter(this);
  }

  private pump(): void {
    while (!this.ended) {
      if (this.sink.writable === false) return this.sink.onDrain?.(() => this.pump());
      const read = this.read();
      if (read === undefined) break;
      if (!this.offer(read)) return;
    }
    if (this.ended || this.held) return;
    this.waitHere();
    const { sink } = this;
    if (sink.heartbeat && this.shape.kind === 'stream')
      this.heartbeat = setInterval(() => sink.heartbeat?.(), this.shape.heartbeatMs);
  }

  /**
   * Delivers a read, or first offers it to the "after N items" gate: true when it left now and
   * a stream may read on; false while the gate decides (it goes on from there) or once ended.
   */
  private offer(read: ReadAnswer): boolean {
    if (this.deliveries === undefined) {
      this.deliver(read);
      return !this.ended;
    }
    this.held = true;
    // A ledger out of reach lets the read through, as a rule that did not fire.
    void this.deliveries
      .delivered(read.items)
      .catch(() => undefined)
      .then((effect) => {
        this.held = false;
        if (this.shape.kind === 'stream' && this.ended) return;
        if (effect) {
          this.settle();
          return this.sink.fail(effect);
        }
        this.deliver(read);
        if (this.shape.kind === 'stream') this.pump();
      });
    return false;
  }

  private deliver(read: ReadAnswer): void {
    const { limits } = this.services;
    if (limits.active) limits.delivered(this.facts.cache, read.items);
    this.sink.deliver(read);
    if (this.shape.kind === 'long-poll') return;
    if (read.discontinuity)
      this.cursor = {
        sequenceNumber: read.discontinuity.new_topic_sequence,
        sequencePage: read.discontinuity.new_sequence_page,
      };
    if (read.items > 0) this.cursor = { sequenceNumber: read.from + read.items, sequencePage: read.page! };
  }

  private settle(): boolean {
    if (this.ended) return false;
    this.ended = true;
    this.services.parking.unpark(this.facts.cache, this.facts.topic, this);
    this.timer?.cancel();
    this.stopHeartbeat();
    if (this.entered) this.services.waiting.forget(this);
    if (this.cleanups) for (const cleanup of this.cleanups.splice(0)) cleanup();
    return true;
  }

  private read(): ReadAnswer | undefined {
    return this.services.store.read(this.facts.cache, this.facts.topic, this.cursor, this.maxItems);
  }

  // Parks on its topic, its cursor where the topic stands (one gone meanwhile, with its cache, leaves it as it is).
  private waitHere(): void {
    const { store, parking } = this.services;
    const { cache, topic } = this.facts;
    const position = store.position(cache, topic);
    if (position) this.cursor = waitingCursor(position, this.cursor);
    parking.park(cache, topic, this);
  }

  private stopHeartbeat(): void {
    if (this.heartbeat === undefined) return;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
