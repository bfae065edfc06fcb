import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import topicsDocument from '../../openapi/generated/topics.json' with { type: 'json' };
import controlDocument from '../../openapi/generated/control.json' with { type: 'json' };
import type { EmulatorContext } from '../context.js';
import { controlHandlers } from '../control/index.js';
import { prepareControlScope } from '../control/scope.js';
import * as topicsValidators from '../generated/topics-validators.js';
import { topicsHandlers } from './handlers/index.js';
import { cacheHandlers } from './handlers/cache.js';
import { CACHE_BOUNDS } from '../cache/operations.js';
import { logsEachRequest, redactUrl } from '../logging.js';
import type { EmulatorCore } from '../core.js';
import type { EmulatorControls } from '../control/controls.js';
import { routeUrl, type BodyKind, type OpenApiDocument } from '../openapi-routes.js';
import { browserGuard } from '../security/browser-guard.js';
import { corsHeaders, registerCors } from '../security/cors.js';
import type { EmulatorSettings } from '../settings.js';
import { registerDashboard } from '../ui/dashboard-route.js';
import { arrivalHook } from './arrival.js';
import { registerBodyParsers } from './body-parsers.js';
import { generatedCompilers } from './compilers.js';
import { connectionGuard } from './connection-guard.js';
import type { Exchange } from './exchanges.js';
import {
  clientErrorHandler,
  connectHandler,
  errorHandler,
  frameworkErrorHandler,
  notFoundHandler,
} from './error-handler.js';
import { registerOperations, routesOf } from './operations.js';
import { LongPolls } from './waiting.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * What the request path keeps of this request (exchanges.ts): made by the arrival hook, so
     * null only for a request fastify refused before any hook (a malformed path).
     */
    exchange: Exchange | null;
  }
}

export const documents = {
  topics: topicsDocument as unknown as OpenApiDocument,
  control: controlDocument as unknown as OpenApiDocument,
};

/** The service document's topic routes, and apart its cache routes (their bodies are items). */
const topicPaths = pathsWhere(documents.topics, (path) => !path.startsWith('/cache/'));
const cachePaths = pathsWhere(documents.topics, (path) => path.startsWith('/cache/'));

function pathsWhere(document: OpenApiDocument, keep: (path: string) => boolean): OpenApiDocument {
  return { ...document, paths: Object.fromEntries(Object.entries(document.paths).filter(([path]) => keep(path))) };
}

function bodyKindsOf(document: OpenApiDocument): Map<string, BodyKind> {
  return new Map(routesOf(document).flatMap((r) => [...r.bodyKinds]));
}

export interface EmulatorApp {
  app: FastifyInstance;
  context: EmulatorContext;
  controls: EmulatorControls;
}

/** The control document, reduced to its open operations (health) when the control plane is off. */
function controlDocumentFor(settings: EmulatorSettings): OpenApiDocument {
  if (settings.controlPlane) return documents.control;
  const open = new Set(
    routesOf(documents.control)
      .filter((route) => route.open)
      .map((route) => route.url),
  );
  const paths = Object.entries(documents.control.paths).filter(([path]) => open.has(routeUrl(path)));
  return { ...documents.control, paths: Object.fromEntries(paths) };
}

/** How often Node looks for requests past their timeout: its default (30 s), or more often for a short timeout. */
function timeoutCheckIntervalMs(requestTimeoutMs: number): number {
  return requestTimeoutMs === 0 ? 30_000 : Math.min(30_000, Math.max(50, Math.floor(requestTimeoutMs / 4)));
}

/** Builds the HTTP door on the core from the two OpenAPI documents; routes are built once, here. */
export async function buildApp(core: EmulatorCore): Promise<EmulatorApp> {
  const { context, controls } = core;
  const log: FastifyBaseLogger = core.logger;
  const { settings, auth, events, clock } = context;
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
  // The waiting long-polls answer through answers.ts, like every other service answer.
  const longPolls = new LongPolls(context, auth);
  app.decorateRequest('exchange', null);
  app.setErrorHandler(errorHandler(settings.payloadLimitBytes, log));
  app.setNotFoundHandler(notFoundHandler);
  // Every request, first (arrival.ts): Host required and checked, browsers' Origins checked, a
  // bound on unanswered pipelined requests per connection; then the CORS headers.
  const browser = browserGuard(settings);
  app.addHook('onRequest', arrivalHook(connectionGuard(browser, events, clock), corsHeaders(browser.origins)));
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
    registerBodyParsers(scope, bodyKindsOf(topicPaths), settings.payloadLimitBytes, settings.contentTypes, log);
    registerOperations(scope, context, topicPaths, topicsHandlers(context, longPolls));
  });
  // The cache HTTP API: its own scope, as its bodies are items (stored as sent, whatever their type).
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: CACHE_BOUNDS.maxValueBytes },
      (_request, body, done) => done(null, body),
    );
    registerOperations(scope, context, cachePaths, cacheHandlers(context));
  });
  await app.register(async (scope) => {
    prepareControlScope(scope, settings, controlDocument, log);
    const served = new Set(routesOf(controlDocument).map((route) => route.operationId));
    registerOperations(
      scope,
      context,
      controlDocument,
      controlHandlers(controls).filter((h) => served.has(h.operationId)),
    );
  });
  if (settings.controlPlane) registerDashboard(app);
  return { app, context, controls };
}
