import type { JournalEntry, RequestMatcher } from '../../openapi/generated/control-types.js';

// Which journalled requests a question is about: the filters of GET /_emulator/requests and
// the WireMock-style matcher of POST /_emulator/requests/count, as one pure predicate.

// One journalled request (the facts of the exchange and its id, increasing from 1 for the
// emulator's life) and the matcher: their shapes are the control document's.
export type { JournalEntry, RequestMatcher };

function timeOf(value: string | number): number {
  return typeof value === 'number' ? value : Date.parse(value);
}

function sameCursor(a: JournalEntry['cursor'], b: JournalEntry['cursor']): boolean {
  if (a === null || b === null) return a === b;
  return a.sequenceNumber === b.sequenceNumber && a.sequencePage === b.sequencePage;
}

/** An error answer, or none (a dropped connection, a client that left): RequestMatcher.failed. */
export const failed = (entry: Pick<JournalEntry, 'status'>): boolean => entry.status === null || entry.status >= 400;

/** The predicate of a matcher; built once per question, run over every entry. */
export function matcherOf(matcher: RequestMatcher): (entry: JournalEntry) => boolean {
  const statuses =
    matcher.status === undefined ? undefined : Array.isArray(matcher.status) ? matcher.status : [matcher.status];
  const since = matcher.since === undefined ? undefined : timeOf(matcher.since);
  const until = matcher.until === undefined ? undefined : timeOf(matcher.until);
  const m = matcher;
  return (e) =>
    (m.protocol === undefined || e.protocol === m.protocol) &&
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
    (m.failed === undefined || failed(e) === m.failed) &&
    (m.cursor === undefined || sameCursor(e.cursor, m.cursor)) &&
    (since === undefined || e.at >= since) &&
    (until === undefined || e.at < until) &&
    (m.afterId === undefined || e.id > m.afterId);
}
