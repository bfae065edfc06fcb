import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Clock } from '../clock.js';
import { EmulatorError } from '../errors.js';
import type { EmulatorEvents } from '../events.js';
import type { ExchangeFacts } from '../exchange.js';
import type { BrowserGuard } from '../security/browser-guard.js';
import { planeOf } from '../security/origins.js';
import { closeExchange, openExchange } from './exchanges.js';

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

/** Most requests one connection may have waiting for their answers. Browsers and undici send one at a time. */
export const PIPELINE_DEPTH = 16;

const unanswered = Symbol('requests of this connection not answered yet');
const exchange = Symbol('the facts of this exchange');
type CountedSocket = Socket & { [unanswered]?: number };
const openedAt = Symbol('performance.now() when this exchange arrived');
type Response = ServerResponse & { [exchange]?: ExchangeFacts; [openedAt]?: number };

export type ConnectionGuard = (request: FastifyRequest, reply: FastifyReply) => EmulatorError | undefined;

export function connectionGuard(browser: BrowserGuard, events: EmulatorEvents, clock: Clock): ConnectionGuard {
  const { hostAllowed } = browser;
  // One listener per app (no closure and no record per request): a response, once closed, no
  // longer counts, and its exchange (when recorded) is told.
  function answered(this: Response): void {
    (this.req.socket as CountedSocket)[unanswered] -= 1;
    const facts = this[exchange];
    if (facts !== undefined) closeExchange(facts, this[openedAt]!, this, events);
  }
  return function guard(request: FastifyRequest, reply: FastifyReply): EmulatorError | undefined {
    if (events.listens('request')) {
      const facts = openExchange(request, clock);
      request.exchange = facts;
      (reply.raw as Response)[exchange] = facts;
      (reply.raw as Response)[openedAt] = performance.now();
    }
    const socket = request.raw.socket as CountedSocket;
    const depth = (socket[unanswered] ?? 0) + 1;
    socket[unanswered] = depth;
    reply.raw.on('close', answered);
    const { host, origin } = request.headers;
    if (host === undefined && request.raw.httpVersion === '1.1') {
      return new EmulatorError('invalid_request', 'An HTTP/1.1 request must carry a Host header.');
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
      if (request.exchange) request.exchange.decidedBy = { kind: 'limit', limit: 'connections' };
      return new EmulatorError(
        'limit_exceeded',
        `More than ${PIPELINE_DEPTH} requests on one connection are waiting for their answers: read the answers, or use more connections.`,
        { 'retry-after': '1' },
      );
    }
    return undefined;
  };
}
