import type { JournalEntry } from '../journal/query.js';
import { clientRules } from '../judge/catalogue.js';
import { endOf } from '../judge/rule.js';
import type { ClientFindings, ClientViolation } from '../../openapi/generated/control-types.js';
import type { RuleLevel } from '../judge/rule.js';
import type { ExamStep } from './plan.js';

// From the judged clients to the exam's verdicts: each rule over every client of the command,
// each gauntlet step met or not (and recovered from or not), and the counts. Pure.

export interface ExamRuleResult {
  id: string;
  level: RuleLevel;
  title: string;
  sentence: string;
  source: string;
  status: 'passed' | 'violated' | 'not exercised';
  occasions: number;
  violations: (ClientViolation & { client: string })[];
}

export function ruleResults(clients: readonly ClientFindings[]): ExamRuleResult[] {
  return clientRules.map((rule) => {
    const occasions = clients.reduce((n, c) => n + (c.rules.find((r) => r.rule === rule.id)?.occasions ?? 0), 0);
    const violations = clients.flatMap((c) =>
      c.violations.filter((v) => v.rule === rule.id).map((v) => ({ ...v, client: c.client })),
    );
    return {
      id: rule.id,
      level: rule.level,
      title: rule.title,
      sentence: rule.sentence,
      source: rule.source,
      status: violations.length ? 'violated' : occasions ? 'passed' : 'not exercised',
      occasions,
      violations,
    };
  });
}

export interface StepResult {
  kind: ExamStep['kind'];
  atMs: number;
  outcome: 'handled' | 'not recovered' | 'not met';
  note: string;
}

const STEP_TOLERANCE_MS = 20;

const met: Record<ExamStep['kind'], (e: JournalEntry) => boolean> = {
  'page-change': (e) => e.discontinuity !== null,
  throttle: (e) => e.status === 429,
  'drop-waiting': (e) => e.dropped,
  outage: (e) => e.status === 503,
  'token-expiry': (e) => e.status === 401 && e.code === 'expired_token',
};

const what: Record<ExamStep['kind'], string> = {
  'page-change': 'a discontinuity to the new page',
  throttle: '429 with Retry-After',
  'drop-waiting': 'a waiting poll dropped',
  outage: '503 outage',
  'token-expiry': 'its token expired (401 expired_token)',
};

/** Whether the client met each step, and answered 200 after it (after a token expiry: with another token). */
export function stepResults(
  steps: readonly ExamStep[],
  playedAt: (step: ExamStep) => number,
  requests: readonly JournalEntry[],
  usedApiKey: boolean,
): StepResult[] {
  return steps.map((step) => {
    const base = { kind: step.kind, atMs: step.atMs };
    if (step.kind === 'token-expiry' && usedApiKey && !requests.some(met[step.kind]))
      return { ...base, outcome: 'not met', note: 'the client used TOPICS_API_KEY, which does not expire' };
    // The answer may be timed a little before the step by the two clocks (clock ms, real ms).
    const first = requests.find((e) => endOf(e) + STEP_TOLERANCE_MS >= playedAt(step) && met[step.kind](e));
    if (!first) return { ...base, outcome: 'not met', note: `the client never saw ${what[step.kind]}` };
    const lastMet = requests.filter((e) => e.at >= first.at && met[step.kind](e)).at(-1)!;
    const recovered = requests.some(
      (e) =>
        e.at > lastMet.at &&
        e.status !== null &&
        e.status < 300 &&
        (step.kind !== 'token-expiry' || e.client !== lastMet.client),
    );
    if (recovered) return { ...base, outcome: 'handled', note: `${what[step.kind]} (#${first.id}), then carried on` };
    return {
      ...base,
      outcome: 'not recovered',
      note:
        step.kind === 'token-expiry'
          ? 'no request succeeded after the token expired: reported, not failed (a client that re-reads TOPICS_TOKEN_URL recovers)'
          : `${what[step.kind]} (#${first.id}), and no request succeeded after it`,
    };
  });
}

export interface ExamCounts {
  clients: number;
  requests: number;
  publishes: number;
  polls: number;
  throttled: number;
  failures: number;
  retries: number;
  discontinuities: number;
  itemsReceived: number;
}

const failure = (e: JournalEntry) =>
  e.dropped || (e.status !== null && (e.status === 429 || e.status >= 500 || e.status === 401));

export function countsOf(clients: readonly ClientFindings[], requests: readonly JournalEntry[]): ExamCounts {
  const last = new Map<string, JournalEntry>();
  let retries = 0;
  for (const e of requests) {
    const key = `${e.client} ${e.operation} ${e.cache}/${e.topic}`;
    const before = last.get(key);
    if (before && failure(before)) retries++;
    last.set(key, e);
  }
  const sum = (pick: (c: ClientFindings) => number) => clients.reduce((n, c) => n + pick(c), 0);
  return {
    clients: clients.length,
    requests: requests.length,
    publishes: sum((c) => c.counters.publishes),
    polls: sum((c) => c.counters.polls),
    throttled: sum((c) => c.counters.throttled),
    failures: requests.filter(failure).length,
    retries,
    discontinuities: sum((c) => c.counters.discontinuities),
    itemsReceived: sum((c) => c.counters.itemsReceived),
  };
}
