import { EmulatorError, type ErrorCode } from '../errors.js';
import type { CacheOperation, Effect, ServiceOperation } from '../requests.js';

// momento-local's fault metadata, honoured so that SDK test suites written for momento-local run
// unchanged: the keys the provider's SDK middleware sends (client-sdk-javascript
// experimental-momento-local-test-config-middleware.ts) on a call, read from a plain lookup.
// Counts are kept per `request-id`, as momento-local keeps them: `error-count` N fails the first
// N matching calls of that id, then they pass. It knows no gRPC: the door gives it the metadata
// and applies what it decides.
//
//   return-error, error-rpcs, error-count     fail matching calls with an error (a gRPC status
//                                             name, e.g. unavailable, or the SDK's code for it)
//   delay-ms, delay-rpcs, delay-count         hold matching calls first (real time)
//   stream-error, stream-error-rpcs,          end a matching subscription stream with an error
//   stream-error-message-limit                after it has sent this many messages (heartbeats too)
//
// A list of RPCs left out means every call. A value that cannot be honoured (an error name
// momento-local does not have, a count or delay that is not a whole number in range) answers
// INVALID_ARGUMENT naming the key, rather than a test that silently does not inject anything.

/** The RPC names momento-local's metadata uses for the two calls of the Topics service. */
const RPC_OF: Record<ServiceOperation, string> = { publish: 'topic-publish', subscribe: 'topic-subscribe' };

/**
 * momento-local's error names (the gRPC status names the SDK's MomentoErrorCodeMetadataConverter
 * sends), each as the emulator's error (what the journal records) and its gRPC status by name,
 * where that is not the one the error's HTTP status maps to.
 */
const ERRORS: Record<string, { code: ErrorCode; grpc?: string }> = {
  'invalid-argument': { code: 'invalid_request' },
  'not-found': { code: 'cache_not_found' },
  internal: { code: 'internal_error' },
  'permission-denied': { code: 'permission_denied' },
  unauthenticated: { code: 'invalid_token' },
  unavailable: { code: 'service_unavailable' },
  'resource-exhausted': { code: 'limit_exceeded' },
  'deadline-exceeded': { code: 'request_timeout' },
  unknown: { code: 'internal_error', grpc: 'UNKNOWN' },
  cancelled: { code: 'internal_error', grpc: 'CANCELLED' },
  'already-exists': { code: 'invalid_request', grpc: 'ALREADY_EXISTS' },
  'failed-precondition': { code: 'invalid_request', grpc: 'FAILED_PRECONDITION' },
};

/**
 * The SDK's own error codes, which its middleware sends as they are for `stream-error`, as
 * momento-local's names (the SDK's MomentoErrorCodeMetadataConverter table).
 */
const SDK_CODES: Record<string, string> = {
  INVALID_ARGUMENT_ERROR: 'invalid-argument',
  BAD_REQUEST_ERROR: 'invalid-argument',
  UNKNOWN_SERVICE_ERROR: 'unknown',
  UNKNOWN_ERROR: 'unknown',
  CACHE_ALREADY_EXISTS_ERROR: 'already-exists',
  ALREADY_EXISTS_ERROR: 'already-exists',
  STORE_ALREADY_EXISTS_ERROR: 'already-exists',
  CACHE_NOT_FOUND_ERROR: 'not-found',
  NOT_FOUND_ERROR: 'not-found',
  STORE_NOT_FOUND_ERROR: 'not-found',
  STORE_ITEM_NOT_FOUND_ERROR: 'not-found',
  INTERNAL_SERVER_ERROR: 'internal',
  PERMISSION_ERROR: 'permission-denied',
  AUTHENTICATION_ERROR: 'unauthenticated',
  CANCELLED_ERROR: 'cancelled',
  CONNECTION_ERROR: 'unavailable',
  SERVER_UNAVAILABLE: 'unavailable',
  LIMIT_EXCEEDED_ERROR: 'resource-exhausted',
  CLIENT_RESOURCE_EXHAUSTED: 'resource-exhausted',
  TIMEOUT_ERROR: 'deadline-exceeded',
  FAILED_PRECONDITION_ERROR: 'failed-precondition',
};

/** An error the metadata asked for: the emulator's error, with the gRPC status to answer when it is not the usual one for its code. */
export class InjectedError extends EmulatorError {
  constructor(
    code: ErrorCode,
    message: string,
    /** A gRPC status name (UNKNOWN, CANCELLED, ...), when the error's HTTP status maps to another. */
    readonly grpcStatus: string | undefined,
  ) {
    super(code, message);
  }
}

/** The longest `delay-ms` honoured, as a fault rule's `delayMs`. */
export const MAX_METADATA_DELAY_MS = 60_000;
/** The most counts kept per request id (momento-local's tests use a new one per test); older ones are forgotten. */
const MAX_REQUEST_IDS = 10_000;
const MAX_REQUEST_ID = 256;
const MAX_COUNT = 1_000_000;

export interface MetadataDecision {
  /** What happens to the call itself: a delay, an error. */
  effect?: Effect;
  /** A subscription stream ends with `error` once it has sent `afterMessages` messages. */
  streamError?: { afterMessages: number; error: EmulatorError };
}

const DECIDED_BY = { kind: 'metadata' } as const;

function refused(key: string, value: string, why: string): EmulatorError {
  return new EmulatorError('invalid_request', `momento-local metadata '${key}: ${value.slice(0, 64)}' ${why}.`);
}

function whole(get: (key: string) => string | undefined, key: string, min: number, max: number): number | undefined {
  const value = get(key);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max)
    throw refused(key, value, `is not a whole number from ${min} to ${max}`);
  return n;
}

function errorNamed(get: (key: string) => string | undefined, key: string): InjectedError | undefined {
  const value = get(key);
  if (value === undefined) return undefined;
  const name = SDK_CODES[value.trim()] ?? value.trim();
  const error = ERRORS[name];
  if (error === undefined) throw refused(key, value, `is not one of ${Object.keys(ERRORS).join(', ')}`);
  return new InjectedError(error.code, `Injected by momento-local metadata (${key}: ${value.trim()}).`, error.grpc);
}

const names = (get: (key: string) => string | undefined, key: string, rpc: string): boolean => {
  const value = get(key);
  return value === undefined || value.split(/[\s,]+/).includes(rpc);
};

export class MomentoLocalFaults {
  private readonly counts = new Map<string, { errors: number; delays: number }>();

  /** What the metadata asks for this call; nothing when it carries none of the keys. Throws a refusal for a value it cannot honour. */
  decide(get: (key: string) => string | undefined, operation: ServiceOperation | CacheOperation): MetadataDecision {
    const returned = errorNamed(get, 'return-error');
    const delayMs = whole(get, 'delay-ms', 0, MAX_METADATA_DELAY_MS);
    const streamError = errorNamed(get, 'stream-error');
    if (returned === undefined && delayMs === undefined && streamError === undefined) return {};
    // A cache call's operation is its RPC's name (get, set, ...), but for SetIfNotExists, which
    // momento-local names set-if like SetIf.
    const rpc =
      operation === 'publish' || operation === 'subscribe'
        ? RPC_OF[operation]
        : operation === 'set-if-not-exists'
          ? 'set-if'
          : operation;
    const count = this.countOf(get('request-id'));
    const decision: MetadataDecision = {};
    let delay: number | undefined;
    if (delayMs !== undefined && delayMs > 0 && names(get, 'delay-rpcs', rpc)) {
      const most = whole(get, 'delay-count', 0, MAX_COUNT);
      if (most === undefined || count.delays < most) {
        count.delays++;
        delay = delayMs;
      }
    }
    let error: EmulatorError | undefined;
    if (returned !== undefined && names(get, 'error-rpcs', rpc)) {
      const most = whole(get, 'error-count', 0, MAX_COUNT);
      if (most === undefined || count.errors < most) {
        count.errors++;
        error = returned;
      }
    }
    if (delay !== undefined || error !== undefined)
      decision.effect = {
        decidedBy: DECIDED_BY,
        ...(delay !== undefined ? { delayMs: delay } : {}),
        ...(error !== undefined ? { error } : {}),
      };
    if (streamError !== undefined && operation === 'subscribe' && names(get, 'stream-error-rpcs', rpc))
      decision.streamError = {
        afterMessages: whole(get, 'stream-error-message-limit', 0, MAX_COUNT) ?? 0,
        error: streamError,
      };
    return decision;
  }

  /** Forgets every request id's counts (the emulator's reset). */
  clear(): void {
    this.counts.clear();
  }

  /**
   * A request id's counts. At most MAX_REQUEST_IDS ids are remembered: one more forgets the id
   * least recently used (a suite's finished tests), never the others' counts. An id longer than
   * MAX_REQUEST_ID characters is refused: cut short, two ids would share counts.
   */
  private countOf(requestId: string | undefined): { errors: number; delays: number } {
    const key = requestId ?? '';
    if (key.length > MAX_REQUEST_ID) throw refused('request-id', key, `is longer than ${MAX_REQUEST_ID} characters`);
    let count = this.counts.get(key);
    if (count !== undefined)
      this.counts.delete(key); // moved to the end: the most recently used
    else {
      count = { errors: 0, delays: 0 };
      if (this.counts.size >= MAX_REQUEST_IDS) this.counts.delete(this.counts.keys().next().value!);
    }
    this.counts.set(key, count);
    return count;
  }
}
