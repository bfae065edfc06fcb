import type { ExchangeFacts } from '../emulator/exchange.js';

// The answers of the request journal's operations, as openapi/control.yaml describes them where
// the journal is part of the emulator: listRequests (`GET /_emulator/requests`, RequestList)
// and listClients (`GET /_emulator/clients`, ClientList). An emulator without the journal
// answers them 404, and the views say so. (Once the journal's schemas are in this checkout's
// control.yaml, these become its generated types.)

/** JournalEntry: one answered request, the exchange's facts with the journal's id. */
export type JournalEntry = ExchangeFacts & { id: number };

export interface RequestList {
  /** Newest first. */
  entries: JournalEntry[];
  /** Entries held now. */
  journalled: number;
  /** Entries pushed out of the ring since start or the last reset. */
  evicted: number;
  capacity: number;
}

export type RuleLevel = 'contract' | 'advice';

export interface ClientViolation {
  rule: string;
  level: RuleLevel;
  /** The sentence the rule rests on, quoted. */
  sentence: string;
  source: string;
  message: string;
  requests: JournalEntry[];
}

export interface ClientFindings {
  client: string;
  firstSeen: number;
  lastSeen: number;
  counters: {
    requests: number;
    publishes: number;
    polls: number;
    errors: number;
    throttled: number;
    unauthorized: number;
    dropped: number;
    clientGone: number;
    itemsReceived: number;
    discontinuities: number;
  };
  subscriptions: {
    id: number;
    cache: string;
    topic: string;
    polls: number;
    firstRequest: number;
    lastRequest: number;
    itemsReceived: number;
    discontinuities: number;
  }[];
  rules: { rule: string; level: RuleLevel; occasions: number; violations: number }[];
  violations: ClientViolation[];
}

export interface ClientList {
  clients: ClientFindings[];
}

/** What decided an entry's answer, in words ('' when the handler did). */
export function decidedByText(entry: ExchangeFacts): string {
  const d = entry.decidedBy;
  if (!d) return entry.dropped ? 'dropped' : entry.clientGone ? 'client gone' : '';
  return d.kind === 'fault' ? `fault ${d.ruleId}` : d.kind === 'chaos' ? 'chaos' : `limit: ${d.limit}`;
}

/** Whether an entry matches the free-text filter (every word somewhere in it), and is an error when asked. */
export function entryMatches(entry: ExchangeFacts, filter: string, errorsOnly: boolean): boolean {
  if (errorsOnly && !isFailure(entry)) return false;
  if (!filter) return true;
  const text = [
    entry.status,
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
