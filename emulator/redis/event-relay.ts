import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import type { EmulatorEvent, EmulatorEvents } from '../events.js';
import { RELAYED_KINDS, type RelayedEvents } from '../backend/replica-link.js';
import { channelMessage } from './channel-message.js';
import { HEARTBEAT_EVERY_MS, HEARTBEAT_TTL_MS } from './liveness.js';
import type { ScriptedRedis } from './scripts.js';
import type { Log } from '../logging.js';

// Other replicas' events for this replica's event-stream readers (GET /_emulator/events).
//
// Most of what the event stream says is already every replica's: a publish, a page change and a
// control change reach each replica through the store, and each emits its own event. Two kinds
// stay where they happen: `request` (a replica's answered requests) and `waiting` (its waiting
// subscribers). They are passed on through Redis, but only while some replica has a reader: a
// replica with none pays nothing, and no replica passes anything on while nobody reads.
//
// - A replica with readers registers in `<prefix>event-readers` (a sorted set scored by when the
//   registration expires, Redis's clock, refreshed every HEARTBEAT_EVERY_MS; a killed replica's
//   lapses after HEARTBEAT_TTL_MS), subscribes to `<prefix>relayed-events`, and says so on the
//   `<prefix>event-readers` channel when its first reader comes and its last one goes.
// - Every replica, on that notice and on each heartbeat, asks whether another replica has readers;
//   while one has, it listens to its own `request` and `waiting` events and publishes them on
//   `<prefix>relayed-events`, one message per turn of the event loop, at most RELAY_PER_SECOND a
//   second: the rest are counted and passed on as a number, which readers see as a `gap`.
//
// A reader so hears another replica's events from a moment after it connected (a notice's round
// trip), never its past ones: the journal, gathered from every replica, holds those.

/** Events one replica passes on per second at most; the rest are counted (a reader's `gap`). */
export const RELAY_PER_SECOND = 2000;

/** What one replica publishes on the relay channel. */
interface RelayMessage {
  from: string;
  events: EmulatorEvent[];
  dropped: number;
}

type Listener = (relayed: RelayedEvents) => void;

// PUBLISH is sent with `call`: on the store's command connection `publish` is the store's script
// of that name (redis-store.ts defines its scripts as commands).

export class RedisEventRelay {
  private readonly listeners = new Set<Listener>();
  private readonly readersKey: string;
  private readonly noticeChannel: string;
  private readonly relayChannel: string;
  private timer: NodeJS.Timeout | undefined;
  private stopRelaying: (() => void) | undefined;
  private batch: EmulatorEvent[] = [];
  private flushing: NodeJS.Immediate | undefined;
  private dropped = 0;
  private windowStart = 0;
  private sentInWindow = 0;
  private closed = false;
  /** Subscribed (or subscribing) to the relayed events: while this replica has readers. */
  private subscribed = false;

  constructor(
    private readonly command: ScriptedRedis,
    private readonly subscriber: Redis,
    prefix: string,
    /** This replica's id (`r<ordinal>`), known once it has joined. */
    private readonly replicaId: () => string,
    private readonly events: EmulatorEvents | undefined,
    private readonly log: Log,
  ) {
    this.readersKey = `${prefix}event-readers`;
    this.noticeChannel = `${prefix}event-readers`;
    this.relayChannel = `${prefix}relayed-events`;
    subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.noticeChannel) this.check();
      else if (channel === this.relayChannel) this.heard(text);
    });
  }

  /** Whether this replica passes its events on now (another replica has readers). */
  get relaying(): boolean {
    return this.stopRelaying !== undefined;
  }

  /** Listens for notices, asks once whether anyone reads, then again on every heartbeat. */
  async start(): Promise<void> {
    await this.subscriber.subscribe(this.noticeChannel);
    await this.update();
    this.timer = setInterval(() => this.check(), HEARTBEAT_EVERY_MS);
    this.timer.unref();
  }

  /** Stops passing events on and leaves the readers' registry (a clean close). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.relay(false);
    const hadReaders = this.listeners.size > 0;
    this.listeners.clear();
    if (hadReaders && this.command.status === 'ready') await this.announce().catch(() => undefined);
  }

  /** Hears the other replicas' `request` and `waiting` events while it listens; returns the function that stops. */
  listen(listener: Listener): () => void {
    if (this.closed) return () => undefined;
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      this.subscribe();
      this.announce().catch((error: Error) => this.failed('registering a reader', error));
    }
    return () => {
      if (!this.listeners.delete(listener) || this.listeners.size > 0 || this.closed) return;
      this.subscribed = false;
      this.subscriber.unsubscribe(this.relayChannel).catch((error: Error) => this.failed('unsubscribing', error));
      this.announce().catch((error: Error) => this.failed('leaving the readers', error));
    };
  }

  /** Subscribes to the relayed events; one refused (Redis out of reach) is tried again on the next heartbeat. */
  private subscribe(): void {
    this.subscribed = true;
    this.subscriber.subscribe(this.relayChannel).catch((error: Error) => {
      this.subscribed = false;
      this.failed('subscribing', error);
    });
  }

  /** Registers whether this replica has readers, then tells the others to look again. */
  private async announce(): Promise<void> {
    await this.update();
    await this.command.call('PUBLISH', this.noticeChannel, this.replicaId());
  }

  private check(): void {
    if (this.closed || this.command.status !== 'ready') return;
    if (this.listeners.size > 0 && !this.subscribed && this.subscriber.status === 'ready') this.subscribe();
    this.update().catch((error: Error) => this.failed('asking for readers', error));
  }

  /** Refreshes this replica's registration, and passes events on while another replica has readers. */
  private async update(): Promise<void> {
    const reading = this.listeners.size > 0 && !this.closed ? 1 : 0;
    const others = Number(
      await this.command.eventReaders(this.readersKey, this.replicaId(), reading, HEARTBEAT_TTL_MS),
    );
    this.relay(others > 0 && !this.closed);
  }

  private relay(on: boolean): void {
    if (on === this.relaying || !this.events) return;
    if (on) {
      this.stopRelaying = this.events.on((event) => this.pass(event), RELAYED_KINDS);
      return;
    }
    this.stopRelaying!();
    this.stopRelaying = undefined;
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = undefined;
    this.batch = [];
    this.dropped = 0;
  }

  /** One of this replica's events, published with the others of its turn (or counted, past the rate). */
  private pass(event: EmulatorEvent): void {
    const now = performance.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.sentInWindow = 0;
    }
    if (this.sentInWindow >= RELAY_PER_SECOND) this.dropped += 1;
    else {
      this.sentInWindow += 1;
      this.batch.push(event);
    }
    this.flushing ??= setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushing = undefined;
    if (this.batch.length === 0 && this.dropped === 0) return;
    const message: RelayMessage = { from: this.replicaId(), events: this.batch, dropped: this.dropped };
    this.batch = [];
    this.dropped = 0;
    this.command
      .call('PUBLISH', this.relayChannel, JSON.stringify(message))
      .catch((error: Error) => this.failed('passing events on', error));
  }

  private heard(text: string): void {
    const message = channelMessage<RelayMessage>(text);
    if (message === undefined) return;
    if (message.from === this.replicaId() || !Array.isArray(message.events)) return;
    const relayed: RelayedEvents = { replica: message.from, events: message.events, dropped: message.dropped };
    for (const listener of this.listeners) listener(relayed);
  }

  private failed(doing: string, error: Error): void {
    this.log.debug({ err: error.message }, `event relay: ${doing} failed`);
  }
}
