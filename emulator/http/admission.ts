import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Access } from '../auth/permissions.js';
import type { EmulatorContext } from '../context.js';
import type { OperationHandler, RouteInfo, TopicParams } from './operation-handler.js';
import { checkAccess, confirmCache, decideAdmission } from '../admission.js';
import { requestFacts, type RequestFacts, type ServiceOperation } from '../requests.js';
import { applyEffect } from './answers.js';
import { exchangeOf } from './exchanges.js';

// A service request, once authenticated and its parameters validated: permission, the cache,
// then (only while something is switched on) the fault rules, chaos and account limits decide,
// and answers.ts applies what they decide; then the operation's handler. With nothing on this
// is two boolean checks and a direct call: no promise and no preHandler hook per request.

export function factsOf(operation: ServiceOperation, request: FastifyRequest): RequestFacts {
  const { cacheName, topicName } = request.params as TopicParams;
  return requestFacts(operation, 'http', cacheName, topicName, exchangeOf(request).principal);
}

/** The deciders (admission.ts), their effects applied to this request (answers.ts). */
async function admit(
  context: EmulatorContext,
  operation: ServiceOperation,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const deliveries = await decideAdmission(
    context,
    factsOf(operation, request),
    reply.raw,
    (effect) => applyEffect(effect, request, reply, context.faults.delays),
    () => reply.sent,
  );
  if (deliveries) exchangeOf(request).deliveries = deliveries;
}

/** The route handler of a service operation: its checks and deciders, then the operation. */
export function serviceRoute(
  context: EmulatorContext,
  access: Access,
  handler: OperationHandler,
  route: RouteInfo,
): RouteHandlerMethod {
  const { faults, limits } = context;
  const serve: RouteHandlerMethod = function (request, reply) {
    const { cacheName, topicName } = request.params as TopicParams;
    checkAccess(context, exchangeOf(request).principal!, access, cacheName, topicName);
    // The service's handlers are synchronous: fastify sends what they sent, no promise per request.
    if (!faults.active && !limits.active) return handler.handle(request, reply, route);
    admit(context, handler.operationId as ServiceOperation, request, reply)
      .then(() => {
        if (!reply.sent) return handler.handle(request, reply, route);
      })
      .catch((error: unknown) => {
        if (!reply.sent) reply.send(error);
      });
  };
  // A cache this replica does not know yet (made a moment ago on another replica of a shared
  // store) is asked for first; the known ones stay on the synchronous path.
  return function (request, reply) {
    const { cacheName } = request.params as TopicParams;
    if (!context.shared || context.store.hasCache(cacheName)) return serve.call(this, request, reply);
    void confirmCache(context, cacheName)
      .then(() => serve.call(this, request, reply))
      .catch((error: unknown) => {
        if (!reply.sent) reply.send(error);
      });
  };
}
