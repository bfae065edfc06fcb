import type { ClientHttp2Session, IncomingHttpHeaders } from 'node:http2';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EmulatorError } from '../errors.js';
import { GRPC_WEB_OPERATION } from '../exchange.js';
import { exchangeOf } from '../http/exchanges.js';
import { DOOR_METADATA, WEB_DOOR } from './doors.js';
import type { Reachability } from './reachability.js';
import { readBodiesWithinBudget } from './web-bodies.js';

// gRPC-web on the HTTP port, for `@gomomento/sdk-web` in a browser: each call is passed to the
// gRPC door (server.ts) as a gRPC call over HTTP/2, as Envoy's grpc_web filter does, so the same
// door decides and journals it. The framing is gRPC's own (a flag byte, a length, a message); the
// web variants differ in two ways only, translated here: `application/grpc-web-text` carries the
// frames in base64, both ways; and the status, which gRPC sends as HTTP/2 trailers, comes as a
// last frame flagged 0x80 holding `grpc-status`, `grpc-message` and the trailing metadata as
// header lines. Browsers' CORS rules apply as to every service route.
// Each browser connection has its own HTTP/2 session to the gRPC door, closed with it, so what one
// client does to its session (thousands of cancelled calls) ends nothing of another's. A reader
// that stops reading holds back its call (the HTTP/2 window, then the door's own stream), so the
// emulator queues a bounded amount for it, as for a native gRPC reader.

/** Where the gRPC door listens inside the process; undefined while it is off. */
export interface GrpcWebTarget {
  internalPort: (() => Promise<number>) | undefined;
  /** test-admin's block: calls answer UNAVAILABLE, and a block ends those in flight. */
  reachability: Reachability;
}

const GRPC_WEB = /^application\/grpc-web(-text)?(\+proto)?$/;

/** Request headers that are HTTP's or the browser's, not gRPC metadata: not passed on. */
const NOT_METADATA = new Set([
  'host',
  'connection',
  'content-length',
  'content-type',
  'accept',
  'accept-encoding',
  'accept-language',
  'origin',
  'referer',
  'user-agent',
  'x-grpc-web',
  'x-user-agent',
  'cookie',
  'pragma',
  'cache-control',
  'keep-alive',
  'transfer-encoding',
  'te',
  'upgrade',
  'priority',
]);

/** Response headers of the gRPC answer that are HTTP/2's, not metadata. */
const NOT_RESPONSE_METADATA = new Set([
  ':status',
  'content-type',
  'date',
  'content-length',
  'grpc-accept-encoding',
  'grpc-encoding',
]);

const EXPOSED = 'Retry-After, grpc-status, grpc-message';
/** gRPC's UNKNOWN, for an answer without a status. */
const UNKNOWN = 2;

/** The trailer frame of gRPC-web: flag 0x80, a length, then `key: value` lines. */
export function trailerFrame(trailers: Record<string, string>): Buffer {
  const lines = Object.entries(trailers)
    .map(([key, value]) => `${key}: ${value}\r\n`)
    .join('');
  const body = Buffer.from(lines, 'utf8');
  const head = Buffer.alloc(5);
  head[0] = 0x80;
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** The trailers of a gRPC answer (or its trailers-only headers) as gRPC-web's trailer lines. */
export function trailersOf(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = { 'grpc-status': String(headers['grpc-status'] ?? UNKNOWN) };
  for (const [key, value] of Object.entries(headers)) {
    if (key.startsWith(':') || NOT_RESPONSE_METADATA.has(key) || key === 'grpc-status' || value === undefined) continue;
    out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function metadataOf(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (NOT_METADATA.has(key) || key.startsWith('sec-') || key.startsWith('access-control-') || value === undefined)
      continue;
    out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** POST /<package.Service>/<Method> with a gRPC-web content type: passed to the gRPC door. */
export function registerGrpcWeb(app: FastifyInstance, target: GrpcWebTarget): void {
  // node:http2 is loaded with the first call (most runs never see one).
  let http2: typeof import('node:http2') | undefined;
  const sessions = new Map<Socket, ClientHttp2Session>();
  const sessionFor = (connection: Socket, port: number): ClientHttp2Session => {
    const known = sessions.get(connection);
    if (known !== undefined && !known.closed && !known.destroyed) return known;
    const opened = http2!.connect(`http://127.0.0.1:${port}`);
    opened.on('error', () => opened.destroy());
    const forget = () => {
      if (sessions.get(connection) === opened) sessions.delete(connection);
    };
    opened.on('close', forget);
    opened.on('goaway', forget);
    opened.unref();
    if (known === undefined) connection.once('close', () => sessions.get(connection)?.close());
    sessions.set(connection, opened);
    return opened;
  };
  app.addHook('onClose', () => {
    for (const session of sessions.values()) session.close();
  });
  // A block drops what is in flight, as a dropped network would.
  target.reachability.onBlock(() => {
    for (const session of sessions.values()) session.destroy();
  });

  void app.register(async (scope) => {
    // Any body is read here (within the bounds), so that a POST of another type is answered as
    // the route it is not, rather than 415.
    readBodiesWithinBudget(scope);
    // A path of a gRPC method: /<package.Service>/<Method>.
    scope.post('/:service(^[A-Za-z_][\\w.]*\\.\\w+$)/:method', async (request: FastifyRequest, reply: FastifyReply) => {
      const web = GRPC_WEB.exec(request.headers['content-type'] ?? '');
      if (web === null) throw new EmulatorError('route_not_found', `No such route: POST ${request.url.split('?')[0]}.`);
      const facts = exchangeOf(request).facts;
      if (facts) facts.operation = GRPC_WEB_OPERATION;
      if (target.internalPort === undefined)
        throw new EmulatorError('route_not_found', 'gRPC-web is served while the gRPC door is on (--grpc-port).');
      const text = web[1] !== undefined;
      if (target.reachability.blocked) {
        reply.header('content-type', `application/grpc-web${text ? '-text' : ''}+proto`);
        const frame = trailerFrame({
          'grpc-status': '14',
          'grpc-message': 'The gRPC door is blocked (test-admin /block).',
        });
        return reply.code(200).send(text ? frame.toString('base64') : frame);
      }
      const port = await target.internalPort();
      http2 ??= await import('node:http2');
      const raw = request.body as Buffer;
      const body = text ? Buffer.from(raw.toString('latin1'), 'base64') : raw;
      const upstream = sessionFor(request.raw.socket, port).request({
        ':method': 'POST',
        ':path': request.url,
        'content-type': 'application/grpc',
        te: 'trailers',
        ...metadataOf(request.headers),
        // A page gets what a page may: the gRPC door knows the call came from a browser.
        [DOOR_METADATA]: WEB_DOOR,
      });
      reply.hijack();
      const out = reply.raw;
      const encode = (chunk: Buffer) => (text ? chunk.toString('base64') : chunk);
      // The CORS step set its headers on the reply; a hijacked reply writes its own.
      const headers: Record<string, string | number | string[]> = {};
      for (const [key, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[key] = value;
      if (headers['access-control-allow-origin'] !== undefined) headers['access-control-expose-headers'] = EXPOSED;
      let finished = false;
      const finish = (trailers: Record<string, string>) => {
        if (finished) return;
        finished = true;
        if (!out.headersSent)
          out.writeHead(200, { ...headers, 'content-type': `application/grpc-web${text ? '-text' : ''}+proto` });
        out.end(encode(trailerFrame(trailers)));
      };
      upstream.on('response', (response) => {
        if (response['grpc-status'] !== undefined) return finish(trailersOf(response)); // trailers-only
        out.writeHead(200, { ...headers, 'content-type': `application/grpc-web${text ? '-text' : ''}+proto` });
      });
      upstream.on('data', (chunk: Buffer) => {
        if (finished || out.write(encode(chunk))) return;
        // The browser reads slower than the call answers: hold the call until it has read.
        upstream.pause();
        out.once('drain', () => upstream.resume());
      });
      upstream.on('trailers', (trailers: IncomingHttpHeaders) => finish(trailersOf(trailers)));
      upstream.on('end', () => finish({ 'grpc-status': '0' }));
      upstream.on('error', () => finish({ 'grpc-status': '14', 'grpc-message': 'The gRPC door did not answer.' }));
      // The browser went away (an unsubscribe): the call is cancelled, as a gRPC client's would be.
      out.on('close', () => {
        if (!upstream.closed) upstream.close(http2!.constants.NGHTTP2_CANCEL);
      });
      upstream.end(body);
    });
  });
}
