import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import topicsDocument from '../../openapi/generated/topics.json' with { type: 'json' };
import { EmulatorError, errorRegistry, type ErrorCode } from '../errors.js';
import { redactUrl } from '../logging.js';
import { methodsByPath, operationsOfPath, pathPattern, routeUrl, type OpenApiDocument } from '../openapi-routes.js';
import { recordError } from '../recording.js';
import { nameExchange, operationOf } from './exchanges.js';

// Every failure leaves as `{code, message}` from the one registry, whatever raised it:
// our own errors, fastify's validation and body errors, unknown routes, malformed HTTP.

export function toEmulatorError(error: FastifyError, payloadLimit: number): EmulatorError {
  if (error instanceof EmulatorError) return error;
  if (error.validation) {
    return new EmulatorError('invalid_parameter', `Invalid request parameter: ${error.message}.`);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new EmulatorError(
        'payload_too_large',
        `The message is larger than the payload limit of ${payloadLimit} bytes.`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new EmulatorError('unsupported_content_type');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new EmulatorError('invalid_request', 'The body must be valid JSON.');
    default:
      if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
        return new EmulatorError('invalid_request', `The request is malformed: ${error.message}`);
      }
      return new EmulatorError('internal_error');
  }
}

export function sendError(reply: FastifyReply, error: EmulatorError): FastifyReply {
  // Null for a request fastify refused before any hook (a malformed path): nothing was recorded.
  const facts = reply.request.exchange?.facts;
  if (facts) {
    // Refused before its route's own steps (the connection guard, the control plane's key check):
    // the operation is named here, from the route's config.
    if (facts.operation === null) nameExchange(facts, operationOf(reply.request), reply.request);
    recordError(facts, error);
  }
  return reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8').send(error.toBody());
}

export function errorHandler(payloadLimit: number, log: FastifyBaseLogger) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const emulatorError = toEmulatorError(error, payloadLimit);
    if (emulatorError.status >= 500) log.error({ err: error, reqId: request.id, req: request }, 'request failed');
    return sendError(reply, emulatorError);
  };
}

// The service's paths, from the document: a wrong method there is 405 with `Allow`.
const topics = topicsDocument as unknown as OpenApiDocument;
const topicsMethods = methodsByPath([topics]);
const servicePaths = Object.keys(topics.paths).map((path) => ({
  path,
  pattern: pathPattern(path),
  allow: [...(topicsMethods.get(routeUrl(path)) ?? []), 'OPTIONS'].join(', '),
  use: operationsOfPath(topics, path).join(', '),
}));

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  for (const { path, pattern, allow, use } of servicePaths) {
    const match = pattern.exec(request.url);
    if (!match) continue;
    if (match.slice(1).includes(''))
      return sendError(reply, new EmulatorError('invalid_parameter', 'Cache and topic names must not be empty.'));
    return sendError(
      reply.header('allow', allow),
      new EmulatorError('method_not_allowed', `${request.method} is not allowed on ${path}: use ${use}.`),
    );
  }
  const route = redactUrl(request.url).split('?')[0]!;
  // The key in the path is a form the cache HTTP API does not document (x-emulator-cache-path-key).
  const keyInPath = CACHE_KEY_IN_PATH.test(route)
    ? ' The cache HTTP API takes the key as a query parameter: /cache/{cacheName}?key=... (or key_base64=...).'
    : '';
  return sendError(reply, new EmulatorError('route_not_found', `No route for ${request.method} ${route}.${keyInPath}`));
}

/** `/cache/{cacheName}/{key}`: the cache API's path with a key in it. */
const CACHE_KEY_IN_PATH = /^\/cache\/[^/]+\/[^/]+/;

/**
 * The router's own errors (fastify's frameworkErrors) bypass the error handler: a malformed
 * percent-escape in the path, or a path segment longer than the router takes. Both are a bad
 * path parameter; the message does not echo the path, which may hold a token.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void sendError(reply, frameworkError(error));
}

function frameworkError(error: FastifyError): EmulatorError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new EmulatorError('invalid_parameter', 'The path is not a valid URL: it has a malformed percent-escape.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new EmulatorError(
        'invalid_parameter',
        'A path segment is too long: cache and topic names have at most 255 characters.',
      );
    default:
      return new EmulatorError('internal_error');
  }
}

/** Answers on the bare socket, in the same JSON shape, then closes: for what never reaches a route. */
function endWithError(socket: Duplex, code: ErrorCode, message: string = errorRegistry[code].message): void {
  if (!socket.writable) return void socket.destroy();
  const { status } = errorRegistry[code];
  const body = JSON.stringify({ code, message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

const CLIENT_ERROR_CODES: Readonly<Record<string, ErrorCode>> = {
  HPE_HEADER_OVERFLOW: 'request_header_too_large',
  // Node's headersTimeout and requestTimeout (app.ts): the request did not arrive in time.
  ERR_HTTP_REQUEST_TIMEOUT: 'request_timeout',
};

/** Malformed HTTP never reaches a route: answer it in the same JSON shape, then close. */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  endWithError(socket, CLIENT_ERROR_CODES[error.code ?? ''] ?? 'invalid_request');
}

/** CONNECT asks for a tunnel: Node would drop it unanswered. */
export function connectHandler(_request: IncomingMessage, socket: Duplex): void {
  endWithError(socket, 'method_not_allowed', 'CONNECT is not allowed: the emulator is not a proxy.');
}
