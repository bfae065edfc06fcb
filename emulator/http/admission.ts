import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Access } from '../auth/permissions.js';
import type { EmulatorContext, OperationHandler, RouteInfo, TopicParams } from '../context.js';
import { EmulatorError } from '../errors.js';
import type { RequestFacts, ServiceOperation } from '../requests.js';
import { applyEffect } from './answers.js';
import { exchangeOf } from './exchanges.js';

// A service request, once authenticated and its parameters validated: permission, the cache,
// then (only while something is switched on) the fault rules, chaos and account limits decide,
// and answers.ts applies what they decide; then the operation's handler. With nothing on this
// is two boolean checks and a direct call: no promise and no preHandler hook per request.

export function factsOf(operation: ServiceOperation, request: FastifyRequest): RequestFacts {
  const { cacheName, topicName } = request.params as TopicParams;
  const principal = exchangeOf(request).principal;
  return {
    operation,
    protocol: 'http',
    cache: cacheName,
    topic: topicName,
    tokenId: principal?.kind === 'token' ? principal.tokenId : undefined,
  };
}

/** Fault rules first (the first that fires decides), then chaos, then the account limits. */
async function admit(
  context: EmulatorContext,
  operation: ServiceOperation,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const { faults, limits } = context;
  const facts = factsOf(operation, request);
  if (faults.active) {
    let decision = faults.decide(facts);
    // A promise only when a rule counted across replicas matched and asked their ledger.
    if (decision instanceof Promise) decision = await decision;
    if (decision.deliveries) exchangeOf(request).deliveries = decision.deliveries;
    if (decision.effect) {
      await applyEffect(decision.effect, request, reply, faults.delays);
      if (reply.sent) return;
    }
  }
  if (limits.active) {
    // Immediate in memory; a shared store (Redis) counts for every replica in one round trip.
    const decided = limits.admit(facts, reply.raw);
    const effect = decided instanceof Promise ? await decided : decided;
    if (effect) await applyEffect(effect, request, reply, faults.delays);
  }
}

/** The route handler of a service operation: its checks and deciders, then the operation. */
export function serviceRoute(
  context: EmulatorContext,
  access: Access,
  handler: OperationHandler,
  route: RouteInfo,
): RouteHandlerMethod {
  const { auth, store, faults, limits } = context;
  return function serve(request, reply) {
    const { cacheName, topicName } = request.params as TopicParams;
    auth.authorize(exchangeOf(request).principal!, access, cacheName, topicName);
    if (!store.hasCache(cacheName))
      throw new EmulatorError('cache_not_found', `The cache '${cacheName}' does not exist.`);
    // The service's handlers are synchronous: fastify sends what they sent, no promise per request.
    if (!faults.active && !limits.active) return handler.handle(request, reply, route);
    admit(context, access, request, reply)
      .then(() => {
        if (!reply.sent) return handler.handle(request, reply, route);
      })
      .catch((error: unknown) => {
        if (!reply.sent) reply.send(error);
      });
  };
}
