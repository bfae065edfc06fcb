// The one registry of errors the emulator answers. Every error response is
// `{ code, message }` with the status named here; openapi/topics.yaml lists the same
// codes in its Error schema, and a test keeps the two in step. A code whose gRPC status is not
// the one its HTTP status maps to (grpc/status.ts) names it here.

export const errorRegistry = {
  token_in_header_and_query: {
    status: 400,
    message: 'Only one of the Authorization header and the token query parameter may be set.',
  },
  missing_token: {
    status: 401,
    message: 'No auth token: send it in the Authorization header or the token query parameter.',
  },
  invalid_token: { status: 401, message: 'The auth token is invalid.' },
  expired_token: { status: 401, message: 'The auth token has expired.' },
  permission_denied: {
    status: 403,
    message: 'The auth token does not grant the required access to this cache and topic.',
  },
  cache_not_found: { status: 404, message: 'The cache does not exist.' },
  invalid_parameter: { status: 400, message: 'A request parameter is invalid.' },
  unsupported_content_type: {
    status: 400,
    message:
      'Content-Type must be text/plain (UTF-8 text) or application/octet-stream (binary); text/*, application/json, application/*+json and ' +
      'application/x-www-form-urlencoded are published as text.',
  },
  invalid_utf8: { status: 400, message: 'The body is not valid UTF-8 text.' },
  payload_too_large: { status: 413, message: 'The message is larger than the payload limit.' },
  limit_exceeded: { status: 429, message: 'Account limits were exceeded.' },
  internal_error: { status: 500, message: 'The service has an internal problem.' },
  route_not_found: { status: 404, message: 'No such route.' },
  method_not_allowed: { status: 405, message: 'Method not allowed on this route.' },
  invalid_request: { status: 400, message: 'The request is malformed.' },
  request_header_too_large: { status: 431, message: 'The request headers are too large.' },
  // What a web page may not do (emulator/security/): docs/security.md.
  host_not_allowed: {
    status: 403,
    message: 'The Host header names a host the emulator does not serve (DNS rebinding protection).',
  },
  origin_not_allowed: { status: 403, message: 'A web page on this origin may not call this route.' },
  request_timeout: {
    status: 408,
    message: 'The request was not received in time: send its headers and body within the request timeout.',
  },
  // The cache's (the cache HTTP API's Get Value: "Key Not Found" beside "Cache Not Found").
  key_not_found: { status: 404, message: 'Key Not Found: the key is not in the cache.' },
  failed_precondition: {
    status: 400,
    message: 'The item is not in a state the operation needs (Increment of a value that is not an integer).',
    grpc: 'FAILED_PRECONDITION',
  },
  // Only a fault rule or chaos answers 503: the contract's table has no such status.
  service_unavailable: { status: 503, message: 'The service is temporarily unavailable.' },
  // The control plane's own errors (openapi/control.yaml), never answered on the service routes.
  invalid_body: { status: 400, message: 'The request body is invalid.' },
  admin_key_required: {
    status: 401,
    message: 'The control plane needs the admin key in the X-Emulator-Admin-Key header.',
  },
  admin_key_invalid: { status: 403, message: 'The admin key is not valid.' },
  fault_not_found: { status: 404, message: 'No fault rule has this id.' },
  // A read that covers every replica on a shared store (the journal, the findings, waiting subscribers).
  replica_unreachable: {
    status: 503,
    message: 'A replica did not answer: a read that covers every replica fails rather than answer in part.',
  },
} as const satisfies Record<string, { status: number; message: string; grpc?: string }>;

export type ErrorCode = keyof typeof errorRegistry;

/** Codes only the control plane answers: listed in openapi/control.yaml, not in topics.yaml. */
export const controlPlaneOnlyCodes: ReadonlySet<ErrorCode> = new Set([
  'invalid_body',
  'admin_key_required',
  'admin_key_invalid',
  'fault_not_found',
  'replica_unreachable',
]);

export interface ErrorBody {
  code: ErrorCode;
  message: string;
}

/** An error meant for the client: carries its registry code and, optionally, a more precise message. */
export class EmulatorError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message?: string, headers: Record<string, string> = {}) {
    super(message ?? errorRegistry[code].message);
    this.name = 'EmulatorError';
    this.code = code;
    this.status = errorRegistry[code].status;
    this.headers = headers;
  }

  static defaultMessage(code: ErrorCode): string {
    return errorRegistry[code].message;
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message };
  }
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(errorRegistry, value);
}

/** The 404 of a cache there is not, naming it: one wording for every door and operation. */
export const cacheNotFound = (cache: string): EmulatorError =>
  new EmulatorError('cache_not_found', `The cache '${cache}' does not exist.`);

/** What a stream still open is told as the emulator stops: UNAVAILABLE, which the SDKs retry. */
export const shuttingDown = (): EmulatorError =>
  new EmulatorError('service_unavailable', 'The emulator is shutting down.');

/**
 * A topic that has given the largest safe integer as a number or a page (reachable only from a
 * loaded snapshot): JSON clients could no longer tell numbers apart, so it numbers no further.
 */
export const numbersExhausted = (what: 'sequence number' | 'page'): EmulatorError =>
  new EmulatorError(
    'internal_error',
    `The emulator has given every ${what} up to 2^53 - 1, the largest JSON numbers carry exactly: load a snapshot with smaller ones, or reset the topic (POST /_emulator/topics/{cache}/{topic}/reset) when its sequence numbers are spent.`,
  );
