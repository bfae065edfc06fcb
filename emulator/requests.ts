import type { FaultRuleInput } from '../openapi/generated/control-types.js';
import type { EmulatorError } from './errors.js';
import type { DecidedBy } from './exchange.js';
import type { Cursor } from './topics/read-plan.js';

// What the emulator's deciders (fault rules, chaos, account limits) know of a service request
// and what they answer, whichever door it came through: the door builds the facts, admission.ts
// asks the deciders, service/effects.ts applies a decided effect (its delay) for every door, and
// the door translates what is left (http/answers.ts, grpc/server.ts).

/** A service request's operation: the control document's fault operation less `any`. */
export type ServiceOperation = Exclude<NonNullable<FaultRuleInput['operation']>, 'any'>;

/**
 * A call on the cache's items, by the name momento-local's fault metadata gives the SDK's RPC
 * (`get`, `set`, ...). A fault rule's `operation: any` matches them; limits count each as one
 * operation of its cache.
 */
/** The calls of an SDK's set-up (grpc/admin-services.ts), journalled by these names. */
export const ADMIN_OPERATIONS = [
  'generateDisposableToken',
  'createCache',
  'deleteCache',
  'listCaches',
  'flushCache',
] as const;
export type AdminOperation = (typeof ADMIN_OPERATIONS)[number];

/** The test-admin port's requests, journalled as control-plane requests (grpc/test-admin.ts). */
export const TEST_ADMIN_OPERATIONS = ['testAdminBlock', 'testAdminUnblock'] as const;

export const CACHE_OPERATIONS = [
  'get',
  'get-with-hash',
  'get-batch',
  'set',
  'set-batch',
  'set-if',
  'set-if-hash',
  'set-if-not-exists',
  'delete',
  'increment',
  'keys-exist',
  'item-get-ttl',
  'item-get-type',
  'update-ttl',
  'dictionary-set',
  'dictionary-get',
  'dictionary-fetch',
  'dictionary-increment',
  'dictionary-delete',
  'dictionary-length',
  'set-union',
  'set-difference',
  'set-fetch',
  'set-contains',
  'set-sample',
  'set-pop',
  'set-length',
  'list-concatenate-front',
  'list-concatenate-back',
  'list-push-front',
  'list-push-back',
  'list-pop-front',
  'list-pop-back',
  'list-fetch',
  'list-retain',
  'list-remove',
  'list-length',
  'sorted-set-put',
  'sorted-set-fetch',
  'sorted-set-get-score',
  'sorted-set-get-rank',
  'sorted-set-increment',
  'sorted-set-remove',
  'sorted-set-length',
  'sorted-set-length-by-score',
  'sorted-set-union-store',
] as const;
export type CacheOperation = (typeof CACHE_OPERATIONS)[number];

/**
 * How the journal names a cache call: the cache HTTP API's operationId where both doors have the
 * operation (cacheGet, cacheSet, cacheDelete), else the call's own name.
 */
export const JOURNALLED_AS = {
  get: 'cacheGet',
  set: 'cacheSet',
  delete: 'cacheDelete',
} as const satisfies Partial<Record<CacheOperation, string>>;

/** A journal record's name for an operation (JOURNALLED_AS, else its own). */
export function journalledAs<Operation extends string>(
  operation: Operation,
): Operation | (typeof JOURNALLED_AS)[keyof typeof JOURNALLED_AS] {
  return (
    (JOURNALLED_AS as Partial<Record<string, (typeof JOURNALLED_AS)[keyof typeof JOURNALLED_AS]>>)[operation] ??
    operation
  );
}

/** What a decider can know about a request: its operation, topic and token id (never the token). */
export interface RequestFacts {
  operation: ServiceOperation | CacheOperation;
  /** The door it came through: the HTTP API or the provider's gRPC service. */
  protocol: 'http' | 'grpc';
  cache: string;
  /** The topic; empty for a cache call. */
  topic: string;
  tokenId: string | undefined;
}

/** A request's facts, built the same way by every door: `topic` is '' for a cache call. */
export function requestFacts(
  operation: RequestFacts['operation'],
  protocol: RequestFacts['protocol'],
  cache: string,
  topic: string,
  /** Who asked (the authenticator's Principal): only a token's id is kept. */
  principal: { readonly kind: string; readonly tokenId?: string | undefined } | null | undefined,
): RequestFacts {
  return { operation, protocol, cache, topic, tokenId: principal?.kind === 'token' ? principal.tokenId : undefined };
}

/** What a decider does to one request: hold it (real time), then drop its connection or answer an error. */
export interface Effect {
  readonly decidedBy: DecidedBy;
  readonly delayMs?: number;
  readonly drop?: boolean;
  /** The answer: the registry's status and body, with Retry-After where it applies. */
  readonly error?: EmulatorError;
}

/** A subscribe request waiting for its topic, as deciders and readers (journal, dashboard) see it. */
export interface WaitingRequest {
  readonly facts: RequestFacts;
  /** The cursor it waits on (see waitingCursor). */
  readonly cursor: Cursor;
  /** Clock reading when it started waiting. */
  readonly since: number;
  /** Answers it now with an effect (a "while waiting" fault); false when it was already answered. */
  interrupt(effect: Effect): boolean;
  /** Runs `cleanup` when it ends, however it ends. */
  onEnd(cleanup: () => void): void;
}

/** Every waiting subscribe request, read-only: one registry, one count. */
export interface WaitingRequests extends Iterable<WaitingRequest> {
  readonly size: number;
  has(request: WaitingRequest): boolean;
}

export function describeRequest(facts: RequestFacts): string {
  return `${facts.operation} ${facts.cache}/${facts.topic}`;
}

/** Log fields for a request: never the token, only its id. */
export function requestFields(facts: RequestFacts): Record<string, string> {
  return {
    operation: facts.operation,
    cache: facts.cache,
    topic: facts.topic,
    ...(facts.tokenId !== undefined ? { tokenId: facts.tokenId } : {}),
  };
}
