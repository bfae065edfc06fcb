import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { credentialFrom } from '../auth/credentials.js';
import type { EmulatorContext } from '../context.js';
import type { DeliveryWatch } from '../faults/deliveries.js';
import type { Effect, RequestFacts } from '../requests.js';
import { Subscription, type SubscriptionSink } from '../service/subscription.js';
import type { Cursor } from '../topics/read-plan.js';
import { EMPTY_READ, type ReadAnswer } from '../topics/subscriber.js';
import { clientIdentity, type ClientDigest } from '../recording.js';
import { applyEffectNow, sendRead } from './answers.js';
import { exchangeOf } from './exchanges.js';

// A long-poll: the core's one subscription (service/subscription.ts) with a sink that answers
// the request once, through answers.ts like every other service answer. What is HTTP's alone is
// here: the reply, its client leaving (the socket's close), and a subscribe queued behind an
// earlier answer on its connection (pipelined), which leaves with its connection.

/** One subscribe request's answer, as the subscription's sink. */
class LongPollSink implements SubscriptionSink {
  constructor(
    private readonly context: EmulatorContext,
    private readonly clientDigest: ClientDigest,
    readonly request: FastifyRequest,
    readonly reply: FastifyReply,
  ) {}

  deliver(read: ReadAnswer): void {
    sendRead(this.request, this.reply, read);
  }

  fail(effect: Effect): void {
    applyEffectNow(effect, this.request, this.reply, this.context.faults.delays);
  }

  end(): void {
    sendRead(this.request, this.reply, EMPTY_READ);
  }

  /** Who waits, as the exchange's `client` names it (never the credential); worked out when asked. */
  get client(): string | null {
    const { request } = this;
    const principal = exchangeOf(request).principal;
    if (principal === null) return null;
    try {
      const query = (request.query as { token?: unknown } | undefined)?.token;
      return clientIdentity(credentialFrom(request.headers.authorization, query), principal, this.clientDigest);
    } catch {
      return null;
    }
  }

  /** Resolves once the answer has left (or the client has gone): shutdown waits on it. */
  flushed(): Promise<void> {
    const raw = this.reply.raw;
    return new Promise<void>((resolve) => {
      if (raw.writableFinished || raw.destroyed) return resolve();
      raw.once('finish', resolve).once('close', resolve);
    });
  }
}

export class LongPolls {
  /** Per connection, its subscribes that wait queued behind an earlier answer (pipelined). */
  private readonly queued = new WeakMap<Socket, { waiting: Map<Subscription, FastifyReply>; closed: () => void }>();

  constructor(
    private readonly context: EmulatorContext,
    /** How a client without a token id is named (Authenticator.clientDigest). */
    private readonly clientDigest: ClientDigest,
  ) {}

  /** The subscription of one subscribe request, answered through its reply. */
  open(
    cursor: Cursor,
    facts: RequestFacts,
    request: FastifyRequest,
    reply: FastifyReply,
    deliveries: DeliveryWatch | undefined,
  ): Subscription {
    const { context } = this;
    return new Subscription(
      context,
      cursor,
      facts,
      new LongPollSink(context, this.clientDigest, request, reply),
      { kind: 'long-poll', timeoutMs: context.settings.longPollTimeoutMs },
      deliveries,
    );
  }

  /** Parks it until a publish, its timeout, a fault, a reset, shutdown or its client leaving ends it. */
  park(subscription: Subscription, request: FastifyRequest, reply: FastifyReply): void {
    subscription.park();
    const facts = exchangeOf(request).facts;
    if (facts) subscription.onEnd(() => (facts.waitedMs = this.context.clock.now() - subscription.since));
    // Its client went away: nothing is left behind, not even the half-closed socket.
    reply.raw.once('close', () => {
      if (subscription.abandon()) reply.raw.destroy();
    });
    // An answer queued behind an earlier one on its connection (pipelined) has no socket yet, and
    // when the connection closes Node drops it without a 'close': it leaves with its connection.
    if (reply.raw.socket === null) this.queueOn(request.raw.socket, subscription, reply);
  }

  /**
   * Its connection closed while its answer was queued behind another (pipelined). Node 24 aborts
   * such an answer itself (destroyed before this runs; its 'close' follows and abandons it); Node
   * 20 and 22 drop it without a 'close', so it is given one here, and its exchange is told like
   * any client that left.
   */
  private leftWithConnection(subscription: Subscription, reply: FastifyReply): void {
    const raw = reply.raw;
    if (raw.destroyed || !subscription.abandon()) return;
    raw.destroy();
    raw.emit('close');
  }

  /** One listener per connection, only while it has queued subscribes waiting. */
  private queueOn(socket: Socket, subscription: Subscription, reply: FastifyReply): void {
    if (socket.destroyed) {
      if (subscription.abandon()) reply.raw.destroy();
      return;
    }
    let queued = this.queued.get(socket);
    if (queued === undefined) {
      const waitingHere = new Map<Subscription, FastifyReply>();
      const closed = () => {
        this.queued.delete(socket);
        for (const [left, leftReply] of [...waitingHere]) this.leftWithConnection(left, leftReply);
      };
      queued = { waiting: waitingHere, closed };
      this.queued.set(socket, queued);
      socket.once('close', closed);
    }
    const here = queued;
    here.waiting.set(subscription, reply);
    subscription.onEnd(() => {
      here.waiting.delete(subscription);
      if (here.waiting.size > 0 || this.queued.get(socket) !== here) return;
      this.queued.delete(socket);
      socket.off('close', here.closed);
    });
  }
}
