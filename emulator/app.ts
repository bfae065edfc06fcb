import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifySchemaCompiler,
  type FastifyServerOptions,
  type FastifyReply,
  type FastifyRequest,
  type HookHandlerDoneFunction,
} from 'fastify';
import topicsDocument from '../openapi/generated/topics.json' with { type: 'json' };
import controlDocument from '../openapi/generated/control.json' with { type: 'json' };
import { Authenticator, type Principal } from './auth/authenticator.js';
import { credentialFrom } from './auth/credentials.js';
import { registerBodyParsers } from './body-parsers.js';
import { Clock } from './clock.js';
import type { EmulatorContext, OperationHandler, TopicParams } from './context.js';
import { EmulatorControls } from './control/controls.js';
import { controlHandlers } from './control/index.js';
import { prepareControlScope } from './control/scope.js';
import { connectionGuard } from './connection-guard.js';
import {
  clientErrorHandler,
  connectHandler,
  errorHandler,
  frameworkErrorHandler,
  notFoundHandler,
} from './error-handler.js';
import { EmulatorError } from './errors.js';
import { EmulatorEvents } from './events.js';
import { serviceHooks } from './faults/hooks.js';
import { FaultInjector } from './faults/injector.js';
import { PageChanges } from './faults/page-changes.js';
import { WaitingRequests } from './faults/waiting-requests.js';
import { topicsHandlers } from './handlers/index.js';
import { createLogger, logsEachRequest, redactUrl } from './logging.js';
import { operationRoutes, validatorName, type BodyKind, type OpenApiDocument } from './openapi-routes.js';
import * as topicsValidators from './generated/topics-validators.js';
import { AccountLimits, limitsProfileOf } from './limits/account-limits.js';
import { browserGuard } from './security/browser-guard.js';
import { registerCors } from './security/cors.js';
import type { EmulatorSettings } from './settings.js';
import { InMemoryTopicStore } from './topics/store.js';
import { registerDashboard } from './ui/dashboard-route.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Set by the subscribe handler while the request waits: answers it from outside (faults). */
    abandonWait: (() => boolean) | null;
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
    throw new Error(
      `operations and handlers differ: missing ${missing.join(', ') || 'none'}; unknown ${extra.join(', ') || 'none'}`,
    );
  }
  return routes.map((route) => ({ route, handler: byId.get(route.operationId)! }));
}

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/**
 * Fastify's schema compilers, replaced: the topics routes' parameters are checked by the code
 * generated from the document at build time (scripts/compile-validators.ts), so neither Ajv nor
 * fast-json-stringify is loaded or compiles anything at start (issue 6, start-up). The control
 * plane sets its own compiler (control/scope.ts); no route has a response schema.
 */
function generatedCompilers(document: OpenApiDocument, generated: Readonly<Record<string, unknown>>): CompilersFactory {
  const operationIds = new Map(
    operationRoutes(document).map((route) => [`${route.method} ${route.url}`, route.operationId]),
  );
  const validatorCompiler: FastifySchemaCompiler<unknown> = ({ method, url, httpPart }) => {
    const validate = generated[validatorName(operationIds.get(`${method} ${url}`) ?? '', httpPart ?? '')];
    if (typeof validate !== 'function')
      throw new Error(`no generated validator for ${method} ${url} ${httpPart}: run npm run openapi:compile`);
    return validate as ReturnType<FastifySchemaCompiler<unknown>>;
  };
  // fastify's types describe Ajv's compile function; a fastify schema compiler is what it calls.
  return {
    buildValidator: () => validatorCompiler,
    buildSerializer: () => () => {
      throw new Error('no route of the emulator has a response schema');
    },
  } as unknown as CompilersFactory;
}

function registerOperations(
  scope: FastifyInstance,
  context: EmulatorContext,
  document: OpenApiDocument,
  handlers: OperationHandler[],
): void {
  const { auth, store, faults, limits } = context;
  for (const { route, handler } of bindHandlers(document, handlers)) {
    const access = handler.access;
    const hooks = access && serviceHooks(context, access);
    scope.route({
      method: route.method,
      url: route.url,
      schema: route.schema,
      // Credentials first, before the body is read: a stranger's body is never buffered.
      ...(access && {
        // Callback-style hooks: a credential seen before is settled without a promise.
        onRequest: (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
          let credential: string;
          try {
            credential = credentialFrom(request.headers.authorization, (request.query as { token?: unknown }).token);
            const known = auth.known(credential);
            if (known) {
              request.principal = known;
              return done();
            }
          } catch (error) {
            return done(error as Error);
          }
          auth.authenticate(credential).then((principal) => {
            request.principal = principal;
            done();
          }, done);
        },
        // After the document's parameter validation: a bad name is a 400 before any 403 or 404.
        preHandler: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
          const { cacheName, topicName } = request.params as TopicParams;
          try {
            auth.authorize(request.principal!, access, cacheName, topicName);
            if (!store.hasCache(cacheName))
              throw new EmulatorError('cache_not_found', `The cache '${cacheName}' does not exist.`);
          } catch (error) {
            return done(error as Error);
          }
          // Fault rules, chaos, account limits: two boolean checks when switched off.
          if (!faults.active && !limits.active) return done();
          hooks!.admit(request, reply).then(() => done(), done);
        },
        ...(hooks!.onSend && { onSend: hooks!.onSend }),
      }),
      handler: hooks
        ? (request, reply) => {
            // A subscribe that waits has parked by the time handle() returns. The service's
            // handlers are synchronous: no promise per request.
            const answer = handler.handle(request, reply, route);
            hooks.afterHandler(request, reply);
            return answer;
          }
        : (request, reply) => handler.handle(request, reply, route),
    });
  }
}

function bodyKindsOf(document: OpenApiDocument): Map<string, BodyKind> {
  return new Map(operationRoutes(document).flatMap((r) => [...r.bodyKinds]));
}

export interface EmulatorApp {
  app: FastifyInstance;
  context: EmulatorContext;
  controls: EmulatorControls;
}

/** The control document, reduced to its open operations (health) when the control plane is off. */
function controlDocumentFor(settings: EmulatorSettings): OpenApiDocument {
  if (settings.controlPlane) return documents.control;
  const paths = Object.entries(documents.control.paths).filter(([, item]) =>
    Object.values(item).some((op) => Array.isArray((op as { security?: unknown[] })?.security)),
  );
  return { ...documents.control, paths: Object.fromEntries(paths) };
}

/** How often Node looks for requests past their timeout: its default (30 s), or more often for a short timeout. */
function timeoutCheckIntervalMs(requestTimeoutMs: number): number {
  return requestTimeoutMs === 0 ? 30_000 : Math.min(30_000, Math.max(50, Math.floor(requestTimeoutMs / 4)));
}

/** Builds the fastify app from the two OpenAPI documents; routes are built once, here. */
export async function buildApp(settings: EmulatorSettings, clock = new Clock()): Promise<EmulatorApp> {
  const log: FastifyBaseLogger = createLogger(settings.logLevel);
  const app = Fastify({
    // Fastify's per-request logger only where requests are logged (logging.ts).
    ...(logsEachRequest(settings.logLevel) ? { loggerInstance: log } : { logger: false }),
    // Fastify's own request lines are off; debug level logs a line per response below.
    logController: new LogController({ disableRequestLogging: true }),
    exposeHeadRoutes: false,
    routerOptions: { maxParamLength: 2048 },
    bodyLimit: settings.payloadLimitBytes,
    // close() answers and flushes every long-poll first (index.ts), so every socket left can go.
    forceCloseConnections: true,
    clientErrorHandler,
    // Node would answer a missing Host with a bare 400; connectionGuard answers it in JSON.
    http: { requireHostHeader: false, connectionsCheckingInterval: timeoutCheckIntervalMs(settings.requestTimeoutMs) },
    // Receiving a request (not waiting for its answer: long-polls are not affected) is bounded;
    // Node's check answers through clientErrorHandler: 408 request_timeout.
    requestTimeout: settings.requestTimeoutMs,
    frameworkErrors: frameworkErrorHandler,
    schemaController: { compilersFactory: generatedCompilers(documents.topics, topicsValidators) },
  });
  // Node's headersTimeout (60 s) may not exceed a non-zero requestTimeout.
  if (settings.requestTimeoutMs > 0)
    app.server.headersTimeout = Math.min(app.server.headersTimeout, settings.requestTimeoutMs);
  // Node answers an Expect other than 100-continue with a bare 417; RFC 9110 lets a server
  // ignore an expectation it does not know, so such a request is served as if it had none.
  app.server.on('checkExpectation', (request, response) => app.server.emit('request', request, response));
  app.server.on('connect', connectHandler);
  const events = new EmulatorEvents();
  const store = new InMemoryTopicStore(settings.caches, settings, clock, events);
  const waitingRequests = new WaitingRequests();
  const pageChanges = new PageChanges(store, clock, log);
  const context: EmulatorContext = {
    settings,
    clock,
    log,
    store,
    auth: new Authenticator(settings.apiKeys, settings.signingKey, clock),
    waitingRequests,
    pageChanges,
    events,
    faults: new FaultInjector(clock, log, waitingRequests, pageChanges),
    limits: new AccountLimits(limitsProfileOf(settings), settings.payloadLimitBytes, clock, waitingRequests, log),
  };
  const controls = new EmulatorControls(context);
  app.decorateRequest('principal', null);
  app.decorateRequest('abandonWait', null);
  app.setErrorHandler(errorHandler(settings.payloadLimitBytes, log));
  app.setNotFoundHandler(notFoundHandler);
  // Host required and checked, browsers' Origins checked, a bound on unanswered pipelined requests per connection.
  const browser = browserGuard(settings);
  app.addHook('onRequest', connectionGuard(browser));
  if (logsEachRequest(settings.logLevel)) {
    app.addHook('onResponse', async (request, reply) => {
      request.log.debug(
        { method: request.method, url: redactUrl(request.url), status: reply.statusCode, ms: reply.elapsedTime },
        'request',
      );
    });
  }
  const controlDocument = controlDocumentFor(settings);
  await registerCors(app, browser.origins, [documents.topics, controlDocument]);
  await app.register(async (scope) => {
    registerBodyParsers(scope, bodyKindsOf(documents.topics), settings.payloadLimitBytes, settings.contentTypes, log);
    registerOperations(scope, context, documents.topics, topicsHandlers(context));
  });
  await app.register(async (scope) => {
    prepareControlScope(scope, settings, controlDocument, log);
    registerOperations(
      scope,
      context,
      controlDocument,
      controlHandlers(controls).filter((h) =>
        operationRoutes(controlDocument).some((r) => r.operationId === h.operationId),
      ),
    );
  });
  if (settings.controlPlane) registerDashboard(app);
  return { app, context, controls };
}
