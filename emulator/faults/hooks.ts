import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import type { EmulatorContext, TopicParams } from '../context.js';
import { countItems } from './deliveries.js';
import type { RequestFacts, ServiceOperation } from './rule.js';

// Where faults and account limits meet a service request (wired in app.ts): after
// authentication and authorization, before the handler (app.ts calls admit only when a rule,
// chaos or the limits are on); as a subscribe starts waiting; as a subscribe response leaves.
// With nothing switched on, each costs a branch.

function factsOf(operation: ServiceOperation, request: FastifyRequest): RequestFacts {
  const { cacheName, topicName } = request.params as TopicParams;
  const principal = request.principal;
  return {
    operation,
    cache: cacheName,
    topic: topicName,
    tokenId: principal?.kind === 'token' ? principal.tokenId : undefined,
  };
}

export function serviceHooks(context: EmulatorContext, operation: ServiceOperation) {
  const { faults, limits, waitingRequests, clock } = context;
  return {
    /** Fault rules first (the first that fires decides), then chaos, then the account limits. */
    async admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const facts = factsOf(operation, request);
      if (faults.active) {
        await faults.intercept(facts, request, reply);
        if (reply.sent) return;
      }
      if (limits.active) limits.admit(facts);
    },

    /** After the handler: a subscribe that parked becomes a waiting request others can answer. */
    afterHandler(request: FastifyRequest, reply: FastifyReply): void {
      if (request.abandonWait === null || reply.sent) return;
      const entry = waitingRequests.add(request, reply, factsOf(operation, request), clock.now());
      if (faults.active) faults.waitingStarted(entry);
    },

    /** A subscribe response leaving: "after N items" rules, then delivered items as operations. */
    onSend:
      operation === 'subscribe'
        ? (((request, reply, payload, done) => {
            if (
              (!faults.watchesDeliveries && !limits.active) ||
              reply.statusCode !== 200 ||
              typeof payload !== 'string'
            )
              return done(null, payload);
            const body = faults.watchesDeliveries ? faults.delivered(request, reply, payload) : payload;
            if (limits.active && reply.statusCode === 200)
              limits.delivered((request.params as { cacheName: string }).cacheName, countItems(body));
            done(null, body);
          }) satisfies onSendHookHandler)
        : undefined,
  };
}
