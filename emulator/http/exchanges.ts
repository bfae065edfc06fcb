import { performance } from 'node:perf_hooks';
import type { FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Principal } from '../auth/authenticator.js';
import { hasBearerPrefix } from '../auth/credentials.js';
import type { Clock } from '../clock.js';
import type { EmulatorEvents } from '../events.js';
import type { CredentialPlace, ExchangeFacts, SubscribeCursor } from '../exchange.js';
import type { DeliveryWatch } from '../faults/deliveries.js';
import { planeOf } from '../security/origins.js';
import { hidden } from '../recording.js';

// One request and its answer, as the request path knows it: an `Exchange`, made by the arrival
// hook (arrival.ts) and kept in the one field the emulator adds to fastify's request. Its facts
// (exchange.ts) are gathered only while someone listens to the events: the connection guard opens
// them (one boolean otherwise), each step that decides fills its part in, and the response's
// `close` emits them once the answer has left or the client has gone. Every request pays for
// this while the journal or metrics listen (the default), so the per-request work is one object
// literal of fixed shape and plain field writes; anything derived is worked out once per credential.
//
// One field, not one per thing: fastify sets a request's fields in a loop whose one store sees
// every field's name, so two or more make that store megamorphic on every request. And nothing is
// added to Node's own objects (the socket, the response): a field added after Node made them gives
// them a second shape, and Node's stream and event code, which every request runs, then sees more
// shapes than it can keep fast.

/** What the request path keeps of one request: who called, what counts its answer, its facts. */
export class Exchange {
  /** Who called, once authenticated (auth-hooks.ts). */
  principal: Principal | null = null;
  /** The "after N items" fault rules this subscribe counts towards (admission.ts); null for most. */
  deliveries: DeliveryWatch | null = null;
  /** The facts of this exchange, gathered only while someone listens to the events; else null. */
  facts: ExchangeFacts | null = null;
}

/** The items of an answer without any (every publish): one shared, frozen array, never written. */
const NO_ITEMS = Object.freeze([]) as unknown as number[];

/** The request's exchange: made at arrival (arrival.ts); made here for a request that skipped it, so it is never missing. */
export function exchangeOf(request: FastifyRequest): Exchange {
  return request.exchange ?? (request.exchange = new Exchange());
}

/** Route config the request path reads: the operation a route serves. */
export interface RouteConfig {
  operationId?: string;
}

function credentialPlace(request: FastifyRequest): CredentialPlace {
  const header = request.headers.authorization;
  const query = (request.query as { token?: unknown } | undefined)?.token;
  const inHeader = header !== undefined && header !== '';
  const inQuery = query !== undefined && query !== '';
  return inHeader ? (inQuery ? 'both' : 'header') : inQuery ? 'query' : 'none';
}

/** A query parameter of the cursor as a number; 0 when absent, like the handler's default (a bad value is answered 400). */
function cursorPart(value: unknown): number {
  const number = typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(number) ? number : 0;
}

/** A subscribe's cursor as sent, read before validation so a refused or faulted poll has it too; null when it sent none. */
function cursorSent(query: unknown): SubscribeCursor | null {
  const { sequence_number: number, sequence_page: page } = (query ?? {}) as Record<string, unknown>;
  if (number === undefined && page === undefined) return null;
  return { sequenceNumber: cursorPart(number), sequencePage: cursorPart(page) };
}

/**
 * The facts known when a request arrives, before its route's own steps: which operation it is
 * comes from the route (`nameExchange`), so a request pays nothing here to find its route's config.
 */
export function openExchange(request: FastifyRequest, clock: Clock, connectionId: number): ExchangeFacts {
  const url = request.url;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const params = request.params as { cacheName?: string; topicName?: string } | undefined;
  return {
    protocol: 'http',
    plane: planeOf(path),
    operation: null,
    method: request.method,
    path: hidden(path),
    at: clock.now(),
    durationMs: 0,
    connectionId,
    cache: params?.cacheName === undefined ? null : hidden(params.cacheName),
    topic: params?.topicName === undefined ? null : hidden(params.topicName),
    cursor: null,
    client: null,
    credentialPlace: credentialPlace(request),
    bearer: hasBearerPrefix(request.headers.authorization ?? ''),
    status: null,
    code: null,
    retryAfterSeconds: null,
    decidedBy: null,
    items: NO_ITEMS,
    page: null,
    discontinuity: null,
    dropped: false,
    clientGone: false,
    waitedMs: 0,
  };
}

/** Names the operation a request is, and for a subscribe the cursor it sent: the first step of the route's arrival (arrival.ts). */
export function nameExchange(facts: ExchangeFacts, operation: string | null, request: FastifyRequest): void {
  facts.operation = operation;
  if (operation === 'subscribe') facts.cursor = cursorSent(request.query);
}

/** The operation a request's route serves, read from its config (fastify builds an object per read): for a request refused before its route's steps. */
export function operationOf(request: FastifyRequest): string | null {
  return (request.routeOptions.config as RouteConfig | undefined)?.operationId ?? null;
}

/** Once the response has closed (`opened`: performance.now() at arrival): how it ended, then the event. */
export function closeExchange(
  facts: ExchangeFacts,
  opened: number,
  response: ServerResponse,
  events: EmulatorEvents,
): void {
  facts.durationMs = performance.now() - opened;
  if (response.writableFinished) facts.status = response.statusCode;
  else if (!facts.dropped) facts.clientGone = true;
  events.emit({ kind: 'request', at: facts.at, record: facts });
}
