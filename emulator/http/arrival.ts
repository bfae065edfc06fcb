import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { EmulatorError } from '../errors.js';
import type { CorsHeaders } from '../security/cors.js';
import type { BareTypeReader } from './body-parsers.js';
import type { ConnectionGuard } from './connection-guard.js';
import { Exchange, nameExchange } from './exchanges.js';

// What a request goes through before its body is read, in this order:
//
//   every request: the app's one onRequest hook, `arrival`
//     0. its Exchange made (exchanges.ts): what the path keeps of it, in one field of the request;
//     1. the connection guard (connection-guard.ts): Host, what a browser may do, pipelining
//        depth; it opens the exchange's facts while the events are heard;
//     2. the CORS headers (security/cors.ts);
//   a document's operation: its route's one onRequest hook, `routeArrival`
//     3. the exchange's facts, when open, named with the route's operation (exchanges.ts): known
//        to the route, so no request reads its route's config (an answer refused before this step
//        is named where errors are answered, error-handler.ts);
//     4. a bare media type read as the standard one (body-parsers.ts), where the route has one;
//     5. who is calling (auth-hooks.ts), where the route needs a credential: the last step, and
//        the only one that may wait (a credential seen for the first time is verified first).
//
// Each step is a plain function called here. Fastify runs every hook through its hook runner (a
// call and a check per hook, one call site for all of them), so a publish goes through two hooks
// where it went through four.

export type OnRequestHook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/** The onRequest hook of every request: the connection's checks, then the CORS headers. */
const FRAGMENT = "The request is malformed: a request target has no fragment ('#'); percent-encode it as %23.";

export function arrivalHook(guard: ConnectionGuard, cors: CorsHeaders): OnRequestHook {
  return function arrival(request, reply, done) {
    const exchange = new Exchange();
    request.exchange = exchange;
    // A request target never has a fragment (RFC 9112); the router would read one as the query,
    // so `/topics/c/t#token=...` would be served with the fragment's token. Refused.
    if (request.url.includes('#')) return done(new EmulatorError('invalid_request', FRAGMENT));
    const refusal = guard(request, reply, exchange);
    if (refusal !== undefined) return done(refusal);
    cors(request, reply);
    done();
  };
}

/** The onRequest hook of one operation's route: its exchange named, then its bare media type and its credential, where it has them. */
export function routeArrival(
  operationId: string,
  bareType: BareTypeReader | undefined,
  authenticate: OnRequestHook | undefined,
): OnRequestHook {
  return function arrivedAt(request, reply, done) {
    const facts = request.exchange?.facts;
    if (facts) nameExchange(facts, operationId, request);
    if (bareType !== undefined) bareType(request);
    if (authenticate === undefined) return done();
    authenticate(request, reply, done);
  };
}
