import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context.js';
import type { TopicParams } from './operation-handler.js';
import { EmulatorError } from '../errors.js';
import type { Delays } from '../faults/delay.js';
import type { Effect } from '../requests.js';
import type { ReadAnswer } from '../topics/subscriber.js';
import { recordRead } from '../recording.js';
import { exchangeOf } from './exchanges.js';

// The one place where what the deciders decided meets HTTP: an effect (a fault rule's, chaos's,
// an account limit's) becomes a held request, a dropped connection or an error answer; a read
// becomes a subscribe's 200, counted for "after N items" rules and the operations limit.

function endConnection(request: FastifyRequest, reply: FastifyReply): void {
  if (!reply.sent) reply.hijack();
  request.raw.socket?.destroy();
}

/** Ends the connection without an answer: the client sees the socket close. */
function dropConnection(request: FastifyRequest, reply: FastifyReply): void {
  const facts = exchangeOf(request).facts;
  if (facts) facts.dropped = true;
  endConnection(request, reply);
}

/**
 * Applies an effect: holds the request for its delay (real time, abortable), then drops the
 * connection, or rejects with the error to answer (the caller's error path sends it, so it
 * leaves like every other error). Resolves when the request may go on (a delay alone).
 */
export async function applyEffect(
  effect: Effect,
  request: FastifyRequest,
  reply: FastifyReply,
  delays: Delays,
): Promise<void> {
  const facts = exchangeOf(request).facts;
  if (facts) facts.decidedBy = effect.decidedBy;
  if (effect.delayMs) {
    const outcome = await delays.wait(effect.delayMs, reply.raw);
    if (outcome === 'client-gone') return endConnection(request, reply);
    if (outcome === 'cancelled')
      throw new EmulatorError('service_unavailable', 'The emulator was reset while this request was delayed.');
  }
  if (effect.drop) return dropConnection(request, reply);
  if (effect.error) throw effect.error;
}

/** Applies an effect to a request outside fastify's hooks (a waiting subscribe, an answer about to leave). */
export function applyEffectNow(effect: Effect, request: FastifyRequest, reply: FastifyReply, delays: Delays): void {
  applyEffect(effect, request, reply, delays).catch((error: unknown) => reply.send(error));
}

/** Answers a subscribe with a read: "after N items" rules count it (or answer instead), the limits count its items. */
export function answerRead(
  context: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
  read: ReadAnswer,
): void {
  const deliveries = exchangeOf(request).deliveries;
  if (deliveries === null) return sendRead(context, request, reply, read);
  // The rules count the items now; the read leaves once they have decided (a rule counted
  // across replicas asks their ledger first).
  deliveries
    .delivered(read.items)
    .then((effect) =>
      effect ? applyEffectNow(effect, request, reply, context.faults.delays) : sendRead(context, request, reply, read),
    )
    // As the service route does: an error answers (JSON, from the registry), never an unhandled rejection.
    .catch((error: unknown) => {
      if (!reply.sent) reply.send(error);
    });
}

function sendRead(context: EmulatorContext, request: FastifyRequest, reply: FastifyReply, read: ReadAnswer): void {
  if (context.limits.active) context.limits.delivered((request.params as TopicParams).cacheName, read.items);
  const facts = exchangeOf(request).facts;
  if (facts) recordRead(facts, read);
  void reply.code(200).header('content-type', 'application/json; charset=utf-8').send(read.body);
}
