import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context.js';
import type { OperationHandler } from './operation-handler.js';
import { operationRoutes, type OpenApiDocument, type OperationRoute } from '../openapi-routes.js';
import { serviceRoute } from './admission.js';
import { routeArrival } from './arrival.js';
import { authenticationHook } from './auth-hooks.js';
import { bareTypeReader } from './body-parsers.js';
import type { RouteConfig } from './exchanges.js';

// Each operation of a document becomes one fastify route bound to its one handler. Routes that
// need a credential get the authentication step (arrival.ts) and the service checks (admission.ts).

const compiled = new WeakMap<OpenApiDocument, OperationRoute[]>();

/** The document's routes, compiled once per document. */
export function routesOf(document: OpenApiDocument): OperationRoute[] {
  let routes = compiled.get(document);
  if (routes === undefined) compiled.set(document, (routes = operationRoutes(document)));
  return routes;
}

/** Binds each operation of a document to its one handler; a missing or extra handler is a start-up error. */
export function bindHandlers(document: OpenApiDocument, handlers: OperationHandler[]) {
  const byId = new Map(handlers.map((h) => [h.operationId, h]));
  const routes = routesOf(document);
  const missing = routes.filter((r) => !byId.has(r.operationId)).map((r) => r.operationId);
  const extra = [...byId.keys()].filter((id) => !routes.some((r) => r.operationId === id));
  if (missing.length || extra.length || byId.size !== handlers.length) {
    throw new Error(
      `operations and handlers differ: missing ${missing.join(', ') || 'none'}; unknown ${extra.join(', ') || 'none'}`,
    );
  }
  return routes.map((route) => ({ route, handler: byId.get(route.operationId)! }));
}

export function registerOperations(
  scope: FastifyInstance,
  context: EmulatorContext,
  document: OpenApiDocument,
  handlers: OperationHandler[],
): void {
  const authenticate = authenticationHook(context.auth);
  for (const { route, handler } of bindHandlers(document, handlers)) {
    const access = handler.access;
    const config: RouteConfig = { operationId: route.operationId };
    scope.route({
      method: route.method,
      url: route.url,
      schema: route.schema,
      config,
      onRequest: routeArrival(route.operationId, bareTypeReader(route.bodyKinds), access ? authenticate : undefined),
      handler:
        access && !handler.admitsItself
          ? serviceRoute(context, access, handler, route)
          : (request, reply) => handler.handle(request, reply, route),
    });
  }
}
