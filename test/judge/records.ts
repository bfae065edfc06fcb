import { openedFacts, type ExchangeFacts } from '../../emulator/exchange.js';
import type { JournalEntry } from '../../emulator/journal/query.js';
import { judgeClient } from '../../judge/judge.js';
import type { ClientRule } from '../../judge/rule.js';

// Hand-made journal records for the client rules' tests: a little script of what one client
// sent and got, in order, with times in milliseconds from 0.

export const PAGE = 7;

let nextId = 0;

/** The facts of a successful subscribe to c/t by `token:a` at 0, with the overrides. */
export function facts(overrides: Partial<ExchangeFacts> = {}): ExchangeFacts {
  const opened = openedFacts({
    protocol: 'http',
    plane: 'service',
    operation: 'subscribe',
    method: 'GET',
    path: '/topics/c/t',
    at: 0,
    connectionId: 1,
    cache: 'c',
    topic: 't',
    cursor: null,
    credentialPlace: 'header',
  });
  return { ...opened, durationMs: 1, client: 'token:a', status: 200, ...overrides };
}

export function entry(overrides: Partial<ExchangeFacts>): JournalEntry {
  return { id: ++nextId, ...facts(overrides) };
}

/** A subscribe at `at` with cursor [number, page] (or none), answered with items on PAGE after `ms`. */
export function poll(
  at: number,
  cursor: [number, number] | null,
  items: number[] = [],
  more: Partial<ExchangeFacts> = {},
): JournalEntry {
  return entry({
    at,
    durationMs: more.durationMs ?? 100,
    cursor: cursor && { sequenceNumber: cursor[0], sequencePage: cursor[1] },
    items,
    page: items.length ? (more.page ?? PAGE) : (more.page ?? null),
    ...more,
  });
}

export function publish(at: number, more: Partial<ExchangeFacts> = {}): JournalEntry {
  return entry({ operation: 'publish', method: 'POST', at, status: 204, ...more });
}

/** The rule's violations over one client's records: the ids each one names. */
export function violations(rule: ClientRule, records: JournalEntry[]) {
  const findings = judgeClient('token:a', records, [rule]);
  return {
    occasions: findings.rules[0]!.occasions,
    found: findings.violations.map((v) => v.requests.map((r) => r.id)),
  };
}
