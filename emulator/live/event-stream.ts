import type { EmulatorEvent, EmulatorEvents } from '../events.js';
import { RELAYED_KINDS, type RelayedEvents, type ReplicaLink } from '../topics/replica-link.js';
import { topicKey } from '../topics/topic-key.js';
import { sseComment, sseMessage, sseRetry } from './sse.js';
import { wireData } from './wire.js';

// One reader of the event stream (GET /_emulator/events): a `hello` with what the reader needs
// to draw itself, then every event as it happens, and a heartbeat comment while nothing does.
// A reader that falls behind cannot grow memory without bound: past `maxBufferedBytes` waiting
// in its socket, events are counted instead of written, and a `gap` message says how many were
// lost once it catches up. Waiting-count changes of one topic within one turn of the event loop
// are sent once, with the last count (a publish can answer thousands of subscribers).
//
// On a shared store (Redis), the other replicas' `request` and `waiting` events come too
// (topics/redis/event-relay.ts), and those two kinds carry the `replica` they happened on, this
// one's included: a `waiting` count is that replica's.

export interface EventStreamOptions {
  /** A comment line every this many milliseconds (real time), so proxies and readers see a live connection. */
  heartbeatMs: number;
  /** The `retry:` advice: how long a reader waits before reconnecting. */
  retryMs: number;
  /** Bytes that may wait in the socket; past this, events are dropped and counted. */
  maxBufferedBytes: number;
}

export const defaultStreamOptions: EventStreamOptions = {
  heartbeatMs: 15_000,
  retryMs: 1_000,
  maxBufferedBytes: 256 * 1024,
};

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
    sink.write(sseRetry(options.retryMs));
    this.send('hello', hello);
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
    this.waiting.clear();
    this.sink.end();
  }

  /** An event of the replica `replica` (undefined with no shared store: the emulator's one process). */
  private receive(event: EmulatorEvent, replica: string | undefined): void {
    if (event.kind !== 'waiting') {
      const named = replica !== undefined && RELAYED_KINDS.includes(event.kind);
      return this.send(event.kind, named ? { ...event, replica } : wireData(event));
    }
    this.waiting.set(`${topicKey(event.cache, event.topic)}${replica ?? ''}`, [event, replica]);
    this.waitingFlush ??= setImmediate(() => {
      this.waitingFlush = undefined;
      const pending = [...this.waiting.values()];
      this.waiting.clear();
      for (const [waiting, from] of pending)
        this.send('waiting', from === undefined ? waiting : { ...waiting, replica: from });
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
    this.sink.write(sseMessage({ id: this.nextId++, event, data }));
  }

  private beat(): void {
    if (this.room()) this.sink.write(sseComment('heartbeat'));
  }

  /** Whether the socket has room; once it has, a pending gap is announced first. */
  private room(): boolean {
    if (this.sink.writableLength > this.options.maxBufferedBytes) return false;
    if (this.dropped > 0) {
      const dropped = this.dropped;
      this.dropped = 0;
      this.sink.write(sseMessage({ id: this.nextId++, event: 'gap', data: { dropped } }));
    }
    return true;
  }
}
