import type { ExchangeFacts } from '../emulator/exchange.js';

// The answers of the request journal's operations, as openapi/control.yaml describes them:
// listRequests (`GET /_emulator/requests`, RequestList) and listClients (`GET /_emulator/clients`,
// ClientList). An emulator without the journal answers them 404, and the views say so.

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

/** Whether an entry matches the free-text filter (every word somewhere in it), and is an error when asked. */
export function entryMatches(entry: ExchangeFacts, filter: string, errorsOnly: boolean): boolean {
  if (errorsOnly && !isFailure(entry)) return false;
  if (!filter) return true;
  const text = [
    entry.status,
    entry.protocol,
    entry.operation,
    entry.method,
    entry.path,
    entry.cache,
    entry.topic,
    entry.client,
    entry.code,
    decidedByText(entry),
  ]
    .join(' ')
    .toLowerCase();
  return filter
    .toLowerCase()
    .split(/\s+/)
    .every((word) => text.includes(word));
}

/** An error answer, a dropped connection or a client that left. */
export const isFailure = (entry: ExchangeFacts): boolean => entry.status === null || entry.status >= 400;
