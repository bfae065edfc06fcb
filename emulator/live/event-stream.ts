import type { EmulatorEvent, EmulatorEvents } from '../events.js';
import { RELAYED_KINDS, type RelayedEvents, type ReplicaLink } from '../backend/replica-link.js';
import { topicKey } from '../topics/topic-key.js';
import { sseComment, sseEncoded, sseMessage, sseRetry } from './sse.js';
import { wireData } from './wire.js';

// One reader of the event stream (GET /_emulator/events): a `hello` with what the reader needs
// to draw itself, then every event as it happens, and a heartbeat comment while nothing does.
// A reader that falls behind cannot grow memory without bound: past `maxBufferedBytes` waiting
// in its socket, events are counted instead of written, and a `gap` message says how many were
// lost once it catches up. Waiting-count changes of one topic within one turn of the event loop
// are sent once, with the last count (a publish can answer thousands of subscribers).
//
// On a shared store (Redis), the other replicas' `request` and `waiting` events come too
// (redis/event-relay.ts), and those two kinds carry the `replica` they happened on, this
// one's included: a `waiting` count is that replica's.

export interface EventStreamOptions {
  /** A comment line every this many milliseconds (real time), so proxies and readers see a live connection. */
  heartbeatMs: number;
  /** The `retry:` advice: how long a reader waits before reconnecting. */
  retryMs: number;
  /** Bytes that may wait in the socket; past this, events are dropped and counted. */
  maxBufferedBytes: number;
  /** A reader that has had no room for this long (real ms) is closed: it reconnects, or it is gone. */
  maxStalledMs: number;
}

export const defaultStreamOptions: EventStreamOptions = {
  heartbeatMs: 15_000,
  retryMs: 1_000,
  maxBufferedBytes: 256 * 1024,
  maxStalledMs: 30_000,
};

/**
 * Every reader hears an event in turn, in the same turn of the event loop: the first encodes it,
 * the others take that encoding, so readers cost an event one encoding, not one each.
 */
let lastEncoded: { event: EmulatorEvent; replica: string | undefined; json: string } | undefined;

function encodedOf(event: EmulatorEvent, replica: string | undefined, data: () => unknown): string {
  if (lastEncoded?.event === event && lastEncoded.replica === replica) return lastEncoded.json;
  lastEncoded = { event, replica, json: JSON.stringify(data()) };
  return lastEncoded.json;
}

/** Where the stream writes: a ServerResponse in the emulator, any writable in tests. */
export interface StreamSink {
  write(chunk: string): boolean;
  end(): void;
  readonly writableLength: number;
}

export class EventStream {
  private nextId = 1;
  private dropped = 0;
  private closed = false;
  /** performance.now() since when the reader has had no room; 0 while it has. */
  private stalledSince = 0;
  /** What this turn of the event loop sends, written at once at its end: one write per reader per turn, not per event. */
  private queued: string[] = [];
  private queuedBytes = 0;
  private flushing: NodeJS.Immediate | undefined;
  /** The last `waiting` event of each topic (and replica) in this turn, with its replica. */
  private readonly waiting = new Map<string, [EmulatorEvent, string | undefined]>();
  private waitingFlush: NodeJS.Immediate | undefined;
  private readonly stopListening: () => void;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly sink: StreamSink,
    events: EmulatorEvents,
    hello: unknown,
    private readonly options: EventStreamOptions = defaultStreamOptions,
    /** On a shared store: the replicas, whose own events are heard too. */
    replicas?: Pick<ReplicaLink, 'id' | 'hearOthers'>,
  ) {
    // The retry advice and the hello leave at once: the reader knows it is connected.
    sink.write(sseRetry(options.retryMs) + sseMessage({ id: this.nextId++, event: 'hello', data: hello }));
    const here = replicas?.id;
    const stopHere = events.on((event) => this.receive(event, here));
    const stopOthers = replicas?.hearOthers((relayed) => this.receiveRelayed(relayed));
    this.stopListening = () => {
      stopHere();
      stopOthers?.();
    };
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Events counted but not written so far (the reader was too slow). */
  get droppedEvents(): number {
    return this.dropped;
  }

  /** Stops listening and ends the response; safe to call twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopListening();
    clearInterval(this.heartbeat);
    if (this.waitingFlush) clearImmediate(this.waitingFlush);
    this.flush(); // what this turn queued still goes out before the end
    if (this.flushing) clearImmediate(this.flushing);
    this.waiting.clear();
    this.sink.end();
  }

  /** An event of the replica `replica` (undefined with no shared store: the emulator's one process). */
  private receive(event: EmulatorEvent, replica: string | undefined): void {
    if (event.kind !== 'waiting') {
      if (!this.room()) return void (this.dropped += 1);
      const named = replica !== undefined && RELAYED_KINDS.includes(event.kind);
      const json = encodedOf(event, replica, () => (named ? { ...event, replica } : wireData(event)));
      return this.write(sseEncoded(this.nextId++, event.kind, json));
    }
    this.waiting.set(`${topicKey(event.cache, event.topic)}${replica ?? ''}`, [event, replica]);
    this.waitingFlush ??= setImmediate(() => {
      this.waitingFlush = undefined;
      const pending = [...this.waiting.values()];
      this.waiting.clear();
      for (const [waiting, from] of pending)
        this.send('waiting', from === undefined ? waiting : { ...waiting, replica: from });
      this.flush();
    });
  }

  private receiveRelayed({ replica, events, dropped }: RelayedEvents): void {
    this.dropped += dropped;
    for (const event of events) if (RELAYED_KINDS.includes(event.kind)) this.receive(event, replica);
  }

  private send(event: string, data: unknown): void {
    if (this.closed) return;
    if (!this.room()) {
      this.dropped += 1;
      return;
    }
    this.write(sseMessage({ id: this.nextId++, event, data }));
  }

  private write(chunk: string): void {
    this.queued.push(chunk);
    this.queuedBytes += chunk.length;
    this.flushing ??= setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushing = undefined;
    if (this.closed || this.queued.length === 0) return;
    const chunk = this.queued.length === 1 ? this.queued[0]! : this.queued.join('');
    this.queued = [];
    this.queuedBytes = 0;
    this.sink.write(chunk);
  }

  private beat(): void {
    if (this.room()) this.write(sseComment('heartbeat'));
  }

  /** Whether the socket has room; once it has, a pending gap is announced first. A reader stalled too long is closed. */
  private room(): boolean {
    if (this.closed) return false;
    if (this.sink.writableLength + this.queuedBytes > this.options.maxBufferedBytes) {
      const now = performance.now();
      if (this.stalledSince === 0) this.stalledSince = now;
      else if (now - this.stalledSince > this.options.maxStalledMs) this.close();
      return false;
    }
    this.stalledSince = 0;
    if (this.dropped > 0) {
      const dropped = this.dropped;
      this.dropped = 0;
      this.write(sseMessage({ id: this.nextId++, event: 'gap', data: { dropped } }));
    }
    return true;
  }
}
