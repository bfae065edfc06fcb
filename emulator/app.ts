import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import cors from '@fastify/cors';
import topicsDocument from '../openapi/generated/topics.json' with { type: 'json' };
import controlDocument from '../openapi/generated/control.json' with { type: 'json' };
import { Authenticator, type Principal } from './auth/authenticator.js';
import { credentialFrom } from './auth/credentials.js';
import { registerBodyParsers } from './body-parsers.js';
import { Clock } from './clock.js';
import type { EmulatorContext, OperationHandler, TopicParams } from './context.js';
import { controlHandlers } from './control/index.js';
import { clientErrorHandler, errorHandler, notFoundHandler } from './error-handler.js';
import { EmulatorError } from './errors.js';
import { topicsHandlers } from './handlers/index.js';
import { loggerOptions, redactUrl } from './logging.js';
import { operationRoutes, type BodyKind, type OpenApiDocument } from './openapi-routes.js';
import type { EmulatorSettings } from './settings.js';
import { InMemoryTopicStore } from './topics/store.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export const documents = {
  topics: topicsDocument as unknown as OpenApiDocument,
  control: controlDocument as unknown as OpenApiDocument,
};

/** Binds each operation of a document to its one handler; a missing or extra handler is a start-up error. */
export function bindHandlers(document: OpenApiDocument, handlers: OperationHandler[]) {
  const byId = new Map(handlers.map((h) => [h.operationId, h]));
  const routes = operationRoutes(document);
  const missing = routes.filter((r) => !byId.has(r.operationId)).map((r) => r.operationId);
  const extra = [...byId.keys()].filter((id) => !routes.some((r) => r.operationId === id));
  if (missing.length || extra.length || byId.size !== handlers.length) {
    throw new Error(`operations and handlers differ: missing ${missing.join(', ') || 'none'}; unknown ${extra.join(', ') || 'none'}`);
  }
  return routes.map((route) => ({ route, handler: byId.get(route.operationId)! }));
}

function registerOperations(scope: FastifyInstance, context: EmulatorContext, document: OpenApiDocument, handlers: OperationHandler[]): void {
  for (const { route, handler } of bindHandlers(document, handlers)) {
    const access = handler.access;
    scope.route({
      method: route.method,
      url: route.url,
      schema: route.schema,
      // Credentials first, before the body is read: a stranger's body is never buffered.
      ...(access && {
        onRequest: async (request: FastifyRequest) => {
          const credential = credentialFrom(request.headers.authorization, (request.query as { token?: unknown }).token);
          request.principal = await context.auth.authenticate(credential);
        },
        preHandler: async (request: FastifyRequest) => {
          const { cacheName, topicName } = request.params as TopicParams;
          context.auth.authorize(request.principal!, access, cacheName, topicName);
          if (!context.store.hasCache(cacheName)) throw new EmulatorError('cache_not_found', `The cache '${cacheName}' does not exist.`);
        },
      }),
      handler: (request, reply) => handler.handle(request, reply, route),
    });
  }
}

function bodyKindsOf(document: OpenApiDocument): Map<string, BodyKind> {
  return new Map(operationRoutes(document).flatMap((r) => [...r.bodyKinds]));
}

export interface EmulatorApp {
  app: FastifyInstance;
  context: EmulatorContext;
}

/** Builds the fastify app from the two OpenAPI documents; routes are compiled once, here. */
export async function buildApp(settings: EmulatorSettings, clock = new Clock()): Promise<EmulatorApp> {
  const app = Fastify({
    logger: loggerOptions(settings.logLevel),
    // Per-request logging costs more than the request itself; debug level logs a line per response below.
    logController: new LogController({ disableRequestLogging: true }),
    exposeHeadRoutes: false,
    routerOptions: { maxParamLength: 2048 },
    bodyLimit: settings.payloadLimitBytes,
    // close() answers and flushes every long-poll first (index.ts), so every socket left can go.
    forceCloseConnections: true,
    clientErrorHandler,
  });
  const context: EmulatorContext = {
    settings,
    clock,
    log: app.log,
    store: new InMemoryTopicStore(settings.caches, settings, clock),
    auth: new Authenticator(settings.apiKeys, settings.signingKey, clock),
  };
  app.decorateRequest('principal', null);
  app.setErrorHandler(errorHandler(settings.payloadLimitBytes));
  app.setNotFoundHandler(notFoundHandler);
  if (settings.logLevel === 'debug' || settings.logLevel === 'trace') {
    app.addHook('onResponse', async (request, reply) => {
      request.log.debug({ method: request.method, url: redactUrl(request.url), status: reply.statusCode, ms: reply.elapsedTime }, 'request');
    });
  }
  await app.register(cors, {
    origin: settings.corsOrigins.includes('*') ? true : settings.corsOrigins,
    methods: ['GET', 'POST', 'DELETE'],
    exposedHeaders: ['Retry-After'],
    maxAge: 600,
  });
  await app.register(async (scope) => {
    registerBodyParsers(scope, bodyKindsOf(documents.topics), settings.payloadLimitBytes);
    registerOperations(scope, context, documents.topics, topicsHandlers(context));
  });
  await app.register(async (scope) => {
    registerOperations(scope, context, documents.control, controlHandlers(context));
  });
  return { app, context };
}
