import type { ExchangeFacts } from '../emulator/exchange.js';
import { failed } from '../emulator/journal/query.js';
import type { JournalEntry } from '../openapi/generated/control-types.js';

// The answers of the request journal's operations, as openapi/control.yaml describes them:
// listRequests (`GET /_emulator/requests`, RequestList) and listClients (`GET /_emulator/clients`,
// ClientList). An emulator without the journal answers them 404, and the views say so. The
// Requests view's filters are the journal's own (asked of the server, not applied here).

export type {
  ClientFindings,
  ClientList,
  ClientViolation,
  JournalEntry,
  RequestList,
} from '../openapi/generated/control-types.js';

/** What decided an entry's answer, in words ('' when the handler did). */
export function decidedByText(entry: ExchangeFacts): string {
  const d = entry.decidedBy;
  if (!d) return entry.dropped ? 'dropped' : entry.clientGone ? 'client gone' : '';
  if (d.kind === 'fault') return `fault ${d.ruleId}`;
  if (d.kind === 'limit') return `limit: ${d.limit}`;
  return d.kind === 'chaos' ? 'chaos' : 'momento-local metadata';
}

/** A subscribe's cursor as sent: `5@1795333926`, `(none)`; empty for other operations. */
export function cursorText(entry: ExchangeFacts): string {
  if (entry.operation !== 'subscribe') return '';
  return entry.cursor === null ? '(none)' : `${entry.cursor.sequenceNumber}@${entry.cursor.sequencePage}`;
}

/** What a read delivered: `3–5 on 1795333926`, `none`; empty for other operations. */
export function itemsText(entry: ExchangeFacts): string {
  if (entry.operation !== 'subscribe' || entry.status === null) return '';
  const { items, page } = entry;
  const range = items.length === 0 ? 'none' : items.length === 1 ? `${items[0]}` : `${items[0]}–${items.at(-1)}`;
  const gap = entry.discontinuity ? `after a discontinuity to ${entry.discontinuity.newTopicSequence}, ` : '';
  return `${gap}${range}${page !== null && items.length > 0 ? ` on ${page}` : ''}`;
}

/** Every fact of an entry, as name and value lines: what a selected row opens to. */
export function recordLines(entry: JournalEntry): [string, string][] {
  const yesNo = (value: boolean) => (value ? 'yes' : 'no');
  const lines: [string, string | null][] = [
    ['id', `#${entry.id}`],
    ['at', new Date(entry.at).toISOString()],
    ['door', entry.protocol === 'grpc' ? 'gRPC' : 'HTTP'],
    ['request', `${entry.method} ${entry.path}`],
    ['operation', entry.operation],
    ['topic', entry.cache && entry.topic ? `${entry.cache}/${entry.topic}` : null],
    ['cursor', entry.operation === 'subscribe' ? cursorText(entry) : null],
    ['client', entry.client],
    ['credential', `${entry.credentialPlace}${entry.bearer ? ' (with a Bearer prefix)' : ''}; never recorded`],
    ['status', entry.status === null ? 'no answer' : String(entry.status)],
    ['code', entry.code],
    ['Retry-After', entry.retryAfterSeconds === null ? null : `${entry.retryAfterSeconds} s`],
    ['decided by', decidedByText(entry) || 'the operation'],
    ['items', entry.operation === 'subscribe' ? `${itemsText(entry)} (${entry.items.length})` : null],
    ['delivered', entry.delivered === undefined ? null : String(entry.delivered)],
    [
      'discontinuity',
      entry.discontinuity
        ? `last ${entry.discontinuity.lastTopicSequence}, then ${entry.discontinuity.newTopicSequence} on ${entry.discontinuity.newSequencePage}`
        : null,
    ],
    ['waited', entry.waitedMs > 0 ? `${Math.round(entry.waitedMs)} ms` : null],
    ['duration', `${entry.durationMs.toFixed(1)} ms`],
    ['dropped', yesNo(entry.dropped)],
    ['client gone', yesNo(entry.clientGone)],
    ['connection', String(entry.connectionId)],
    ['replica', entry.replica ?? null],
  ];
  return lines.filter((line): line is [string, string] => line[1] !== null && line[1] !== '');
}

/** An error answer, a dropped connection or a client that left: the journal's own `failed`. */
export const isFailure = failed;
