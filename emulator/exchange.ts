// What one answered request was, as plain facts: the request path fills it in as it decides
// (route, credential, fault or limit, the read's result) and emits it on the event stream
// (`{ kind: 'request', record }`, events.ts) once the response has left or the client has gone.
// The request journal, the client rules and the dashboard read these facts; none of them reads
// fastify's request or reply. It never holds a credential: only an identity derived from one.

/** Where the credential came from on the request. */
export type CredentialPlace = 'header' | 'query' | 'both' | 'none';

/** What decided the answer when it was not the handler: a fault rule, chaos, or an account limit. */
export type DecidedBy =
  | { kind: 'fault'; ruleId: string }
  | { kind: 'chaos' }
  | { kind: 'limit'; limit: 'operations' | 'connections' | 'waiting-subscribers' };

export interface SubscribeCursor {
  sequenceNumber: number;
  sequencePage: number;
}

export interface DiscontinuityFacts {
  lastTopicSequence: number;
  newTopicSequence: number;
  newSequencePage: number;
}

export interface ExchangeFacts {
  /** 'service' for the Topics API routes, 'control' for /_emulator/. */
  plane: 'service' | 'control';
  /** The operationId of the route, or null when no route matched (404/405). */
  operation: string | null;
  method: string;
  /** The request path without its query string (so never a `?token=`). */
  path: string;
  /** Emulator clock reading when the request arrived (ms since the epoch). */
  at: number;
  /** Real milliseconds from arrival until the response finished or the client went away. */
  durationMs: number;
  /** Node's socket of the request, numbered in order of connection. */
  connectionId: number;
  cache: string | null;
  topic: string | null;
  /** A subscribe's cursor as sent: null when it sent neither sequence_number nor sequence_page. */
  cursor: SubscribeCursor | null;
  /** Who called: `token:<tokenId>`, `token:#<digest>` for a token without id, `key:#<digest>`; null without a credential. */
  client: string | null;
  credentialPlace: CredentialPlace;
  /** True when the Authorization header started with `Bearer `. */
  bearer: boolean;
  /** The status answered; null when the connection was dropped (a fault) or the client went away first. */
  status: number | null;
  /** The error registry's code of an error answer. */
  code: string | null;
  retryAfterSeconds: number | null;
  decidedBy: DecidedBy | null;
  /** A subscribe's answer: the sequence numbers delivered, on `page`, in order. */
  items: number[];
  page: number | null;
  discontinuity: DiscontinuityFacts | null;
  /** The emulator closed the connection without an answer (a `drop` fault or chaos). */
  dropped: boolean;
  /** The client closed the connection before the answer. */
  clientGone: boolean;
  /** A subscribe that waited before its answer, for how long (clock ms); 0 when answered at once. */
  waitedMs: number;
}
