import type { ExchangeFacts } from '../exchange.js';

// Which journalled requests a question is about: the filters of GET /_emulator/requests and
// the WireMock-style matcher of POST /_emulator/requests/count, as one pure predicate.

/** One journalled request: the facts of the exchange and its place in the journal. */
export interface JournalEntry extends ExchangeFacts {
  /** Increasing from 1 for the emulator's life (a reset does not restart it). */
  id: number;
}

/** Every member is optional; a request matches when it matches every member given. */
export interface RequestMatcher {
  plane?: ExchangeFacts['plane'];
  operation?: string;
  method?: string;
  path?: string;
  cache?: string;
  topic?: string;
  topicPrefix?: string;
  client?: string;
  /** One status, or any of several; `null` matches requests that got no answer. */
  status?: number | null | (number | null)[];
  code?: string;
  credentialPlace?: ExchangeFacts['credentialPlace'];
  bearer?: boolean;
  dropped?: boolean;
  clientGone?: boolean;
  /** A subscribe's cursor as sent; `null` matches a first request without one. */
  cursor?: ExchangeFacts['cursor'];
  /** At or after this time (date-time or clock ms). */
  since?: string | number;
  /** Before this time (date-time or clock ms). */
  until?: string | number;
  /** Only entries with a greater id: a reader that polls asks for what is new. */
  afterId?: number;
}

function timeOf(value: string | number): number {
  return typeof value === 'number' ? value : Date.parse(value);
}

function sameCursor(a: ExchangeFacts['cursor'], b: ExchangeFacts['cursor']): boolean {
  if (a === null || b === null) return a === b;
  return a.sequenceNumber === b.sequenceNumber && a.sequencePage === b.sequencePage;
}

/** The predicate of a matcher; built once per question, run over every entry. */
export function matcherOf(matcher: RequestMatcher): (entry: JournalEntry) => boolean {
  const statuses =
    matcher.status === undefined ? undefined : Array.isArray(matcher.status) ? matcher.status : [matcher.status];
  const since = matcher.since === undefined ? undefined : timeOf(matcher.since);
  const until = matcher.until === undefined ? undefined : timeOf(matcher.until);
  const m = matcher;
  return (e) =>
    (m.plane === undefined || e.plane === m.plane) &&
    (m.operation === undefined || e.operation === m.operation) &&
    (m.method === undefined || e.method === m.method.toUpperCase()) &&
    (m.path === undefined || e.path === m.path) &&
    (m.cache === undefined || e.cache === m.cache) &&
    (m.topic === undefined || e.topic === m.topic) &&
    (m.topicPrefix === undefined || (e.topic ?? '').startsWith(m.topicPrefix)) &&
    (m.client === undefined || e.client === m.client) &&
    (statuses === undefined || statuses.includes(e.status)) &&
    (m.code === undefined || e.code === m.code) &&
    (m.credentialPlace === undefined || e.credentialPlace === m.credentialPlace) &&
    (m.bearer === undefined || e.bearer === m.bearer) &&
    (m.dropped === undefined || e.dropped === m.dropped) &&
    (m.clientGone === undefined || e.clientGone === m.clientGone) &&
    (m.cursor === undefined || sameCursor(e.cursor, m.cursor)) &&
    (since === undefined || e.at >= since) &&
    (until === undefined || e.at < until) &&
    (m.afterId === undefined || e.id > m.afterId);
}
