import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { credentialFrom } from '../auth/credentials.js';
import type { Clock, ClockTimer } from '../clock.js';
import type { EmulatorEvents } from '../events.js';
import type { Effect, RequestFacts, WaitingRequest, WaitingRequests } from '../requests.js';
import type { Cursor } from '../topics/read-plan.js';
import { EMPTY_READ, type ReadAnswer, type WaitingSubscriber } from '../topics/subscriber.js';
import type { Topic } from '../topics/topic.js';
import { clientIdentity, exchangeOf, type ClientDigest } from './exchanges.js';

// A subscribe request that waits: one object owning its cursor, start time, request facts,
// timer and reply, held in one registry. Its topic wakes it (answer), its timeout, a reset or
// shutdown answer it with no items, a "while waiting" fault interrupts it, its client leaving
// abandons it. Whichever comes first settles it, once: it leaves its topic and the registry,
// its timer and the faults' timers are cancelled. The registry tells the event stream how many
// wait on a topic whenever one starts or stops waiting there.

/** How a waiting request's answer leaves (http/answers.ts), given to the registry by the app. */
export interface WaitingAnswers {
  read(request: FastifyRequest, reply: FastifyReply, read: ReadAnswer): void;
  effect(request: FastifyRequest, reply: FastifyReply, effect: Effect): void;
}

/**
 * What the registry holds: a waiting subscribe request (WaitingSubscribe, below), or an open gRPC
 * subscription stream (grpc/server.ts), which counts as waiting for its whole life.
 */
export interface WaitingEntry extends WaitingRequest {
  readonly topic: Topic;
  /** Who waits, named as the exchanges' `client` (never the credential). */
  readonly client: string | null;
  /** Ends it with no items (a reset, shutdown, a deleted cache): a long-poll's empty answer; a stream ends. */
  answer(read: ReadAnswer): void;
  /** Resolves once its answer has left (shutdown waits on it, bounded); absent: nothing to wait for. */
  flushed?(): Promise<void>;
}

export class WaitingSubscribe implements WaitingSubscriber, WaitingEntry {
  timer: ClockTimer | undefined;
  private settled = false;
  private cleanups: (() => void)[] | undefined;

  constructor(
    private readonly registry: WaitingSubscribes,
    readonly topic: Topic,
    readonly cursor: Cursor,
    readonly facts: RequestFacts,
    readonly since: number,
    readonly request: FastifyRequest,
    readonly reply: FastifyReply,
  ) {}

  get maxItems(): number {
    return exchangeOf(this.request).deliveries?.maxItems ?? Infinity;
  }

  /** Who waits, as the exchange's `client` names it (never the credential); worked out when asked. */
  get client(): string | null {
    const { request } = this;
    const principal = exchangeOf(request).principal;
    if (principal === null) return null;
    try {
      const query = (request.query as { token?: unknown } | undefined)?.token;
      return clientIdentity(
        credentialFrom(request.headers.authorization, query),
        principal,
        this.registry.clientDigest,
      );
    } catch {
      return null;
    }
  }

  /** Answers with a read (its topic's wake) or with no items (timeout, reset, shutdown). */
  answer(read: ReadAnswer): void {
    if (this.settle()) this.registry.answers.read(this.request, this.reply, read);
  }

  interrupt(effect: Effect): boolean {
    if (!this.settle()) return false;
    this.registry.answers.effect(this.request, this.reply, effect);
    return true;
  }

  /** Its client went away: nothing is left behind, not even the half-closed socket. */
  abandon(): void {
    if (this.settle()) this.reply.raw.destroy();
  }

  /**
   * Its connection closed while its answer was queued behind another (pipelined). Node 24 aborts
   * such an answer itself (destroyed before this runs; its 'close' follows and abandons this);
   * Node 20 and 22 drop it without a 'close', so it is given one here, and its exchange is told
   * like any client that left.
   */
  leftWithConnection(): void {
    const raw = this.reply.raw;
    if (raw.destroyed || !this.settle()) return;
    raw.destroy();
    raw.emit('close');
  }

  onEnd(cleanup: () => void): void {
    (this.cleanups ??= []).push(cleanup);
  }

  /** Resolves once the answer has left (or the client has gone): shutdown waits on it. */
  flushed(): Promise<void> {
    const raw = this.reply.raw;
    return new Promise<void>((resolve) => {
      if (raw.writableFinished || raw.destroyed) return resolve();
      raw.once('finish', resolve).once('close', resolve);
    });
  }

  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.topic.unpark(this);
    this.timer?.cancel();
    this.registry.forget(this);
    const facts = exchangeOf(this.request).facts;
    if (facts) facts.waitedMs = this.registry.clock.now() - this.since;
    if (this.cleanups) for (const cleanup of this.cleanups.splice(0)) cleanup();
    return true;
  }
}

// Every waiting subscribe request: the one count of them (the --max-waiting-subscribers check,
// the concurrent-subscriptions limit, the state), read-only for everyone but the subscribe path.
export class WaitingSubscribes implements WaitingRequests {
  private readonly entries = new Set<WaitingEntry>();
  /** Per connection, its subscribes that wait queued behind an earlier answer (pipelined). */
  private readonly queued = new WeakMap<Socket, { waiting: Set<WaitingSubscribe>; closed: () => void }>();

  constructor(
    readonly clock: Clock,
    private readonly longPollTimeoutMs: number,
    readonly answers: WaitingAnswers,
    private readonly events: EmulatorEvents,
    /** How a client without a token id is named (Authenticator.clientDigest). */
    readonly clientDigest: ClientDigest,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  has(request: WaitingRequest): boolean {
    return this.entries.has(request as WaitingEntry);
  }

  [Symbol.iterator](): IterableIterator<WaitingEntry> {
    return this.entries.values();
  }

  /** Holds an entry that waits in its own way (a gRPC stream) until `forget`. */
  enter(entry: WaitingEntry): void {
    this.entries.add(entry);
    this.told(entry.topic);
  }

  /** Parks a subscribe on its topic until a publish, its timeout, a fault, a reset or shutdown answers it. */
  park(
    topic: Topic,
    cursor: Cursor,
    facts: RequestFacts,
    request: FastifyRequest,
    reply: FastifyReply,
  ): WaitingSubscribe {
    const waiting = new WaitingSubscribe(this, topic, cursor, facts, this.clock.now(), request, reply);
    this.entries.add(waiting);
    topic.park(waiting);
    this.told(topic);
    if (this.longPollTimeoutMs > 0)
      waiting.timer = this.clock.schedule(this.longPollTimeoutMs, () => waiting.answer(EMPTY_READ));
    reply.raw.once('close', () => waiting.abandon());
    // An answer queued behind an earlier one on its connection (pipelined) has no socket yet, and
    // when the connection closes Node drops it without a 'close': it leaves with its connection.
    if (reply.raw.socket === null) this.queueOn(request.raw.socket, waiting);
    return waiting;
  }

  /** One listener per connection, only while it has queued subscribes waiting. */
  private queueOn(socket: Socket, waiting: WaitingSubscribe): void {
    if (socket.destroyed) return waiting.abandon();
    let queued = this.queued.get(socket);
    if (queued === undefined) {
      const waitingHere = new Set<WaitingSubscribe>();
      const closed = () => {
        this.queued.delete(socket);
        for (const left of [...waitingHere]) left.leftWithConnection();
      };
      queued = { waiting: waitingHere, closed };
      this.queued.set(socket, queued);
      socket.once('close', closed);
    }
    const here = queued;
    here.waiting.add(waiting);
    waiting.onEnd(() => {
      here.waiting.delete(waiting);
      if (here.waiting.size > 0 || this.queued.get(socket) !== here) return;
      this.queued.delete(socket);
      socket.off('close', here.closed);
    });
  }

  /** Answers every waiting request with no items (reset, shutdown); returns them. */
  answerAll(): WaitingEntry[] {
    const all = [...this.entries];
    for (const waiting of all) waiting.answer(EMPTY_READ);
    return all;
  }

  forget(waiting: WaitingEntry): void {
    if (this.entries.delete(waiting)) this.told(waiting.topic);
  }

  /** The event stream hears how many wait on the topic now (only while someone listens). */
  private told(topic: Topic): void {
    if (!this.events.listens('waiting')) return;
    const { cache, name } = topic;
    this.events.emit({ kind: 'waiting', at: this.clock.now(), cache, topic: name, waiting: topic.waiting.size });
  }
}
