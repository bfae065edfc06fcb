import type { ClientFindings, ClientViolation } from '../openapi/generated/control-types.js';
import type { JournalEntry } from '../openapi/generated/control-types.js';
import { clientRules } from './catalogue.js';
import type { ClientRule, ClientView } from './rule.js';
import { followSubscriptions } from './subscriptions.js';

// The client rules over the journal: group the service requests by client (credential
// identity), follow each client's subscriptions, run every rule. Pure: the same entries give
// the same findings.

// The findings' shapes are the control document's (ClientFindings, ClientViolation).
type RuleResult = ClientFindings['rules'][number];
type ClientCounters = ClientFindings['counters'];

function countersOf(requests: readonly JournalEntry[]): ClientCounters {
  const c: ClientCounters = {
    requests: requests.length,
    publishes: 0,
    polls: 0,
    errors: 0,
    throttled: 0,
    unauthorized: 0,
    dropped: 0,
    clientGone: 0,
    itemsReceived: 0,
    discontinuities: 0,
  };
  for (const r of requests) {
    if (r.operation === 'publish') c.publishes++;
    else if (r.operation === 'subscribe') c.polls++;
    if (r.status !== null && r.status >= 400) c.errors++;
    if (r.status === 429) c.throttled++;
    if (r.status === 401 || r.status === 403) c.unauthorized++;
    if (r.dropped) c.dropped++;
    if (r.clientGone) c.clientGone++;
    if (r.discontinuity !== null) c.discontinuities++;
    c.itemsReceived += r.delivered ?? r.items.length;
  }
  return c;
}

export function judgeClient(
  client: string,
  requests: JournalEntry[],
  rules: readonly ClientRule[] = clientRules,
): ClientFindings {
  const byId = new Map(requests.map((r) => [r.id, r]));
  const subscriptions = followSubscriptions(requests.filter((r) => r.operation === 'subscribe'));
  const view: ClientView = { client, requests, subscriptions };
  const results: RuleResult[] = [];
  const violations: ClientViolation[] = [];
  for (const rule of rules) {
    const outcome = rule.check(view);
    results.push({
      rule: rule.id,
      level: rule.level,
      occasions: outcome.occasions,
      violations: outcome.violations.length,
    });
    for (const v of outcome.violations) {
      violations.push({
        rule: rule.id,
        level: rule.level,
        sentence: rule.sentence,
        source: rule.source,
        message: v.message,
        requests: v.requests.map((id) => byId.get(id)!).filter(Boolean),
      });
    }
  }
  const findings: ClientFindings = {
    client,
    firstSeen: requests[0]!.at,
    lastSeen: requests.at(-1)!.at,
    counters: countersOf(requests),
    subscriptions: subscriptions.map((s) => ({
      id: s.id,
      cache: s.cache,
      topic: s.topic,
      polls: s.polls.length,
      firstRequest: s.polls[0]!.id,
      lastRequest: s.polls.at(-1)!.id,
      itemsReceived: s.polls.reduce((n, p) => n + (p.delivered ?? p.items.length), 0),
      discontinuities: s.polls.filter((p) => p.discontinuity !== null).length,
    })),
    rules: results,
    violations,
  };
  return findings;
}

/** Every client of the service plane (requests without a credential are not a client), in order of first request. */
export function judgeClients(
  entries: readonly JournalEntry[],
  rules: readonly ClientRule[] = clientRules,
): ClientFindings[] {
  const byClient = new Map<string, JournalEntry[]>();
  const inOrder = entries
    .filter((e) => e.plane === 'service' && e.client !== null)
    .sort((a, b) => a.at - b.at || a.id - b.id);
  for (const entry of inOrder) {
    let list = byClient.get(entry.client!);
    if (!list) byClient.set(entry.client!, (list = []));
    list.push(entry);
  }
  return [...byClient].map(([client, requests]) => judgeClient(client, requests, rules));
}
