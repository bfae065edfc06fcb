import type { Discontinuity } from '../topics/read-plan.js';
import { waitingCursor, type Cursor } from '../topics/read-plan.js';
import type { ReadAnswer, WaitingSubscriber } from '../topics/subscriber.js';
import type { Topic } from '../topics/topic.js';
import type { MessageValue as DeliveredValue } from '../../openapi/generated/control-types.js';

// One Subscribe stream on one topic: the same reads as a long-poll (Topic.read, planRead), but the
// answer goes on instead of ending. It reads from its cursor, writes what the read delivered,
// moves its cursor past it (last + 1 on the last page; after a discontinuity alone, its new
// number) and reads again; with nothing to read it parks on the topic as a long-poll does, and
// sends a heartbeat while it waits. It knows no gRPC: the door gives it a sink.

/**
 * "After N items" fault rules the stream counts towards (faults/deliveries.ts): each read is
 * capped at `maxItems`, and offered to `admit` before it is sent; the read is held until it
 * answers, and false stops the stream (the door ends it with the rule's effect).
 */
export interface DeliveryGate {
  readonly maxItems: number;
  admit(items: number): Promise<boolean>;
}

export interface SubscriptionSink {
  item(sequenceNumber: number, page: number, value: DeliveredValue, publisher: string): void;
  discontinuity(discontinuity: Discontinuity): void;
  heartbeat(): void;
  /** False while the consumer's buffer is full: the subscription waits for `onDrain`. */
  readonly writable: boolean;
  onDrain(resume: () => void): void;
}

export class TopicSubscription implements WaitingSubscriber {
  cursor: Cursor;
  since = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  private ended = false;
  /** A read held while the gate decides whether it may leave. */
  private held = false;

  constructor(
    private readonly topic: Topic,
    start: Cursor,
    private readonly sink: SubscriptionSink,
    private readonly heartbeatMs: number,
    private readonly now: () => number,
    private readonly gate?: DeliveryGate,
  ) {
    this.cursor = start;
  }

  get maxItems(): number {
    return this.gate?.maxItems ?? Infinity;
  }

  /** Opens with a heartbeat (the Go SDK refuses a stream that does not), then delivers. */
  start(): void {
    this.sink.heartbeat();
    this.pump();
  }

  /** Parked on the topic, it is answered once something is there for its cursor. */
  answer(read: ReadAnswer): void {
    if (this.ended) return;
    this.stopHeartbeat();
    if (this.offer(read)) this.pump();
  }

  end(): void {
    this.ended = true;
    this.topic.unpark(this);
    this.stopHeartbeat();
  }

  private pump(): void {
    while (!this.ended) {
      if (!this.sink.writable) return this.sink.onDrain(() => this.pump());
      const read = this.topic.read(this.cursor, this.maxItems);
      if (read === undefined) break;
      if (!this.offer(read)) return;
    }
    if (this.ended || this.held) return;
    this.cursor = waitingCursor(this.topic.position, this.cursor);
    this.since = this.now();
    this.topic.park(this);
    this.heartbeat = setInterval(() => this.sink.heartbeat(), this.heartbeatMs);
  }

  /** Sends a read, or offers it to the gate: false when it is not sent yet (the pump stops here). */
  private offer(read: ReadAnswer): boolean {
    if (this.gate === undefined || read.items === 0) {
      this.deliver(read);
      return true;
    }
    this.held = true;
    // A ledger out of reach lets the read through, as a rule that did not fire.
    void this.gate
      .admit(read.items)
      .catch(() => true)
      .then((ok) => {
        this.held = false;
        if (!ok || this.ended) return;
        this.deliver(read);
        this.pump();
      });
    return false;
  }

  private deliver(read: ReadAnswer): void {
    if (read.discontinuity) {
      this.sink.discontinuity(read.discontinuity);
      this.cursor = {
        sequenceNumber: read.discontinuity.new_topic_sequence,
        sequencePage: read.discontinuity.new_sequence_page,
      };
    }
    for (const message of this.topic.itemsOf(read)) {
      this.sink.item(message.sequenceNumber, read.page!, message.value, message.publisher);
      this.cursor = { sequenceNumber: message.sequenceNumber + 1, sequencePage: read.page! };
    }
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
