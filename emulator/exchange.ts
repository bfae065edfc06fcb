// What one answered request was, as plain facts: the request path fills it in as it decides
// (route, credential, fault or limit, the read's result) and emits it on the event stream
// (`{ kind: 'request', record }`, events.ts) once the response has left or the client has gone.
// The request journal, the client rules and the dashboard read these facts; none of them reads
// fastify's request or reply. It never holds a credential: only an identity derived from one.

import type { JournalEntry } from '../openapi/generated/control-types.js';

/**
 * The facts themselves: the document's `JournalEntry` (openapi/control.yaml, where each field is
 * described) less the id the journal gives it.
 */
export type ExchangeFacts = Omit<JournalEntry, 'id'>;

/** Where the credential came from on the request. */
export type CredentialPlace = ExchangeFacts['credentialPlace'];

/** What decided the answer when it was not the handler: a fault rule, chaos, or an account limit. */
export type DecidedBy = NonNullable<ExchangeFacts['decidedBy']>;

export type SubscribeCursor = NonNullable<ExchangeFacts['cursor']>;

export type DiscontinuityFacts = NonNullable<ExchangeFacts['discontinuity']>;

/** The operation the HTTP exchange of a gRPC-web call is named: not journalled, as the door journals the call itself. */
export const GRPC_WEB_OPERATION = 'grpcWeb';

/** What every exchange's facts start from: the request's own, and nothing decided yet. */
export function openedFacts(
  request: Pick<
    ExchangeFacts,
    | 'protocol'
    | 'plane'
    | 'operation'
    | 'method'
    | 'path'
    | 'at'
    | 'connectionId'
    | 'cache'
    | 'topic'
    | 'cursor'
    | 'credentialPlace'
  >,
): ExchangeFacts {
  return {
    ...request,
    durationMs: 0,
    client: null,
    bearer: false,
    status: null,
    code: null,
    retryAfterSeconds: null,
    decidedBy: null,
    items: [],
    page: null,
    discontinuity: null,
    dropped: false,
    clientGone: false,
    waitedMs: 0,
  };
}
