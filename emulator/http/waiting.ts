import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { credentialFrom } from '../auth/credentials.js';
import type { Clock, ClockTimer } from '../clock.js';
import type { Effect, RequestFacts } from '../requests.js';
import type { Cursor } from '../topics/read-plan.js';
import { EMPTY_READ, type ReadAnswer, type WaitingSubscriber } from '../topics/subscriber.js';
import type { Topic } from '../topics/topic.js';
import type { WaitingEntry, WaitingSubscribers } from '../waiting.js';
import { clientIdentity, type ClientDigest } from '../recording.js';
import { exchangeOf } from './exchanges.js';

// A subscribe request that waits: one object owning its cursor, start time, request facts,
// timer and reply, held in the registry of waiting subscribers (../waiting.ts). Its topic wakes it (answer), its timeout, a reset or
// shutdown answer it with no items, a "while waiting" fault interrupts it, its client leaving
// abandons it. Whichever comes first settles it, once: it leaves its topic and the registry,
// its timer and the faults' timers are cancelled.

/** How a waiting request's answer leaves (http/answers.ts), given to the registry by the app. */
export interface WaitingAnswers {
  read(request: FastifyRequest, reply: FastifyReply, read: ReadAnswer): void;
  effect(request: FastifyRequest, reply: FastifyReply, effect: Effect): void;
}

export class WaitingSubscribe implements WaitingSubscriber, WaitingEntry {
  timer: ClockTimer | undefined;
  private settled = false;
  private cleanups: (() => void)[] | undefined;

  constructor(
    private readonly longPolls: LongPolls,
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
        this.longPolls.clientDigest,
      );
    } catch {
      return null;
    }
  }

  /** Answers with a read (its topic's wake) or with no items (timeout, reset, shutdown). */
  answer(read: ReadAnswer): void {
    if (this.settle()) this.longPolls.answers.read(this.request, this.reply, read);
  }

  interrupt(effect: Effect): boolean {
    if (!this.settle()) return false;
    this.longPolls.answers.effect(this.request, this.reply, effect);
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
    this.longPolls.registry.forget(this);
    const facts = exchangeOf(this.request).facts;
    if (facts) facts.waitedMs = this.longPolls.clock.now() - this.since;
    if (this.cleanups) for (const cleanup of this.cleanups.splice(0)) cleanup();
    return true;
  }
}

// The long-polls waiting now, held in the one registry of waiting subscribers (../waiting.ts):
// parking one on its topic with its timeout, and what its connection closing means.
export class LongPolls {
  /** Per connection, its subscribes that wait queued behind an earlier answer (pipelined). */
  private readonly queued = new WeakMap<Socket, { waiting: Set<WaitingSubscribe>; closed: () => void }>();

  constructor(
    readonly registry: WaitingSubscribers,
    private readonly longPollTimeoutMs: number,
    readonly answers: WaitingAnswers,
    /** How a client without a token id is named (Authenticator.clientDigest). */
    readonly clientDigest: ClientDigest,
  ) {}

  get clock(): Clock {
    return this.registry.clock;
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
    topic.park(waiting);
    this.registry.enter(waiting);
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
}
