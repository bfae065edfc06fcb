import type { FastifyReply, FastifyRequest } from 'fastify';
import { applyEffect as applyEffectOnce } from '../service/effects.js';
import type { Delays } from '../faults/delay.js';
import type { Effect } from '../requests.js';
import type { ReadAnswer } from '../topics/subscriber.js';
import { recordRead } from '../recording.js';
import { exchangeOf } from './exchanges.js';

// The one place where what the deciders decided meets HTTP: an effect (a fault rule's, chaos's,
// an account limit's) becomes a held request, a dropped connection or an error answer; a read
// becomes a subscribe's 200.

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
 * Applies an effect (service/effects.ts: held with the shared delays), then drops the
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
  const outcome = await applyEffectOnce(effect, delays, reply.raw);
  if (outcome === 'client-gone') return endConnection(request, reply);
  if (outcome === 'drop') return dropConnection(request, reply);
}

/** Applies an effect to a request outside fastify's hooks (a waiting subscribe, an answer about to leave). */
export function applyEffectNow(effect: Effect, request: FastifyRequest, reply: FastifyReply, delays: Delays): void {
  applyEffect(effect, request, reply, delays).catch((error: unknown) => reply.send(error));
}

/** Answers a subscribe with a read (the subscription counted it for the limits and the "after N items" rules). */
export function sendRead(request: FastifyRequest, reply: FastifyReply, read: ReadAnswer): void {
  const facts = exchangeOf(request).facts;
  if (facts) recordRead(facts, read);
  void reply.code(200).header('content-type', 'application/json; charset=utf-8').send(read.body);
}
