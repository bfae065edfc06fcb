import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Authenticator, Principal } from '../auth/authenticator.js';
import { credentialFrom } from '../auth/credentials.js';
import { recordClient, recordRefusedClient } from '../recording.js';
import { exchangeOf } from './exchanges.js';

// Who is calling, settled before the body is read (a stranger's body is never buffered): the
// last step of the route's arrival (arrival.ts). What they may do is checked by the service route
// once the document's parameter validation has passed (admission.ts), so a bad name is a 400
// before any 403 or 404.

/** The arrival step of every route that needs a credential; callback style, so a credential seen before costs no promise. */
export function authenticationHook(auth: Authenticator) {
  return function authenticate(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    let credential: string;
    try {
      credential = credentialFrom(request.headers.authorization, (request.query as { token?: unknown }).token);
      const known = auth.known(credential);
      if (known) return identified(request, credential, known, auth, done);
    } catch (error) {
      return refused(request, error as Error, auth, done);
    }
    auth.authenticate(credential).then(
      (principal) => identified(request, credential, principal, auth, done),
      (error: Error) => refused(request, error, auth, done),
    );
  };
}

function refused(request: FastifyRequest, error: Error, auth: Authenticator, done: HookHandlerDoneFunction): void {
  const facts = exchangeOf(request).facts;
  if (facts) {
    const { token } = request.query as { token?: unknown };
    const header = request.headers.authorization ?? '';
    const presented = header !== '' ? header : typeof token === 'string' ? token : '';
    if (presented !== '') recordRefusedClient(facts, presented, auth);
  }
  done(error);
}

function identified(
  request: FastifyRequest,
  credential: string,
  principal: Principal,
  auth: Authenticator,
  done: HookHandlerDoneFunction,
): void {
  const exchange = exchangeOf(request);
  exchange.principal = principal;
  if (exchange.facts) recordClient(exchange.facts, credential, principal, auth);
  done();
}
