import { performance } from 'node:perf_hooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import type { Clock } from '../clock.js';
import { EmulatorError } from '../errors.js';
import type { EmulatorEvents } from '../events.js';
import type { BrowserGuard } from '../security/browser-guard.js';
import { planeOf } from '../security/origins.js';
import { closeExchange, openExchange, type Exchange } from './exchanges.js';

// Checks every request makes of its connection before it is routed (the first step of the
// arrival hook, arrival.ts): a refusal to answer, or undefined to go on.
//
// - HTTP/1.1 requires Host (RFC 9112 §3.2): refused with 400 from the one registry (Node would
//   answer a bare 400 with no body; app.ts turns Node's own check off).
// - What a browser may not do (security/browser-guard.ts): a Host a DNS-rebinding page could
//   send, an Origin the route's plane does not allow. A request with an allowed Host seen before
//   and no Origin or Sec-Fetch-Site (every non-browser client) costs a string comparison.
// - Pipelining depth: Node parses every request of a packet at once and holds each answer until
//   the ones before it have been written, so a client that pipelines many subscribes and never
//   reads would make the emulator build and hold every answer (100 reads of a 0.4 MB answer:
//   40 MB per connection). Past PIPELINE_DEPTH unanswered requests on one connection, a request
//   is answered 429 `limit_exceeded` (small) and the connection closes after it.
// - While someone listens to the events, the facts of the exchange are opened here, and emitted
//   by the same `close` listener that counts the answer (exchanges.ts).
//
// What it counts per connection is kept beside the socket (a WeakMap), not on it: exchanges.ts
// says why nothing is added to Node's objects.

/** Most requests one connection may have waiting for their answers. Browsers and undici send one at a time. */
export const PIPELINE_DEPTH = 16;

/** One connection, as the guard counts it. */
interface Connection {
  /** Its number in the exchanges' facts (`connectionId`), from 1 in the order first seen. */
  readonly id: number;
  /** Its requests not answered yet. */
  unanswered: number;
}

export type ConnectionGuard = (
  request: FastifyRequest,
  reply: FastifyReply,
  exchange: Exchange,
) => EmulatorError | undefined;

export function connectionGuard(browser: BrowserGuard, events: EmulatorEvents, clock: Clock): ConnectionGuard {
  const { hostAllowed } = browser;
  const connections = new WeakMap<Socket, Connection>();
  let lastConnectionId = 0;
  function opened(socket: Socket): Connection {
    const connection = { id: ++lastConnectionId, unanswered: 0 };
    connections.set(socket, connection);
    return connection;
  }
  return function guard(request: FastifyRequest, reply: FastifyReply, exchange: Exchange): EmulatorError | undefined {
    const connection = connections.get(request.raw.socket) ?? opened(request.raw.socket);
    const depth = ++connection.unanswered;
    const response = reply.raw;
    if (events.listens('request')) {
      const facts = openExchange(request, clock, connection.id);
      exchange.facts = facts;
      const openedAt = performance.now();
      // Once closed, the response no longer counts, and its exchange is told.
      response.on('close', () => {
        connection.unanswered -= 1;
        closeExchange(facts, openedAt, response, events);
      });
    } else {
      response.on('close', () => void (connection.unanswered -= 1));
    }
    const { host, origin } = request.headers;
    if (host === undefined) {
      if (request.raw.httpVersion === '1.1')
        return new EmulatorError('invalid_request', 'An HTTP/1.1 request must carry a Host header.');
      // HTTP/1.0 may leave it out, but where the Host is checked, a request without one is not served.
      if (hostAllowed !== undefined)
        return new EmulatorError(
          'host_not_allowed',
          'A request without a Host header is not served here: send one (localhost, an IP address or an allowed host).',
        );
    }
    const fetchSite = request.headers['sec-fetch-site'];
    if (
      origin !== undefined ||
      fetchSite !== undefined ||
      (host !== undefined && hostAllowed !== undefined && !hostAllowed(host))
    ) {
      const url = request.routeOptions.url;
      const plane = url === undefined ? 'service' : planeOf(url);
      const refusal = browser.refusal({
        method: request.method,
        host,
        origin,
        fetchSite,
        plane,
      });
      if (refusal) return refusal;
    }
    if (depth > PIPELINE_DEPTH) {
      reply.header('connection', 'close');
      if (exchange.facts) exchange.facts.decidedBy = { kind: 'limit', limit: 'connections' };
      return new EmulatorError(
        'limit_exceeded',
        `More than ${PIPELINE_DEPTH} requests on one connection are waiting for their answers: read the answers, or use more connections.`,
        { 'retry-after': '1' },
      );
    }
    return undefined;
  };
}
