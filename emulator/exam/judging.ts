import type { JournalEntry } from '../journal/query.js';
import { clientRules } from '../../judge/catalogue.js';
import { endOf } from '../../judge/rule.js';
import type { ClientFindings, ClientViolation } from '../../openapi/generated/control-types.js';
import type { RuleLevel } from '../../judge/rule.js';
import type { EndToEndResult } from './end-to-end.js';
import type { ExamStep } from './plan.js';

// From the judged clients to the exam's verdicts: each rule over every client of the command,
// each gauntlet step met or not (and recovered from or not), and the counts. Pure.

/** One client's violations of one rule: how many, and the first few to read. */
export interface ExamRuleFinding {
  client: string;
  count: number;
  /** The first MAX_EXAMPLES violations, in order. */
  examples: ClientViolation[];
}

export interface ExamRuleResult {
  id: string;
  level: RuleLevel;
  title: string;
  sentence: string;
  source: string;
  status: 'passed' | 'violated' | 'not exercised';
  occasions: number;
  /** Every violation counted, over every client. */
  violationCount: number;
  /** One entry per client that violated the rule. */
  findings: ExamRuleFinding[];
}

/** How many violations of one rule and client a report shows (the count says how many there were). */
export const MAX_EXAMPLES = 3;

export function ruleResults(clients: readonly ClientFindings[]): ExamRuleResult[] {
  const byRule = new Map<string, ExamRuleFinding[]>();
  const occasions = new Map<string, number>();
  for (const c of clients) {
    for (const r of c.rules) occasions.set(r.rule, (occasions.get(r.rule) ?? 0) + r.occasions);
    const mine = new Map<string, ExamRuleFinding>();
    for (const v of c.violations) {
      let finding = mine.get(v.rule);
      if (!finding) {
        mine.set(v.rule, (finding = { client: c.client, count: 0, examples: [] }));
        let list = byRule.get(v.rule);
        if (!list) byRule.set(v.rule, (list = []));
        list.push(finding);
      }
      finding.count++;
      if (finding.examples.length < MAX_EXAMPLES) finding.examples.push(v);
    }
  }
  return clientRules.map((rule) => {
    const findings = byRule.get(rule.id) ?? [];
    const violationCount = findings.reduce((n, f) => n + f.count, 0);
    const seen = occasions.get(rule.id) ?? 0;
    return {
      id: rule.id,
      level: rule.level,
      title: rule.title,
      sentence: rule.sentence,
      source: rule.source,
      status: violationCount ? 'violated' : seen ? 'passed' : 'not exercised',
      occasions: seen,
      violationCount,
      findings,
    };
  });
}

/** Whether a violation of this rule fails the exam: contract and harm always, advice with --strict. */
export const fails = (rule: Pick<ExamRuleResult, 'level' | 'status'>, strict: boolean): boolean =>
  rule.status === 'violated' && (rule.level !== 'advice' || strict);

export interface StepResult {
  kind: ExamStep['kind'];
  atMs: number;
  /** `not applicable`: the client chose a way the step cannot reach (the API key does not expire). */
  outcome: 'handled' | 'not recovered' | 'not met' | 'not applicable';
  note: string;
}

const STEP_TOLERANCE_MS = 20;

/** A request that did what it asked: answered below 300, or a stream that delivered messages. */
export const succeeded = (e: Pick<JournalEntry, 'status' | 'delivered'>): boolean =>
  (e.status !== null && e.status < 300) || (e.delivered ?? 0) > 0;

/** Whether a client's request met the situation a step creates. */
export const met: Record<ExamStep['kind'], (e: Omit<JournalEntry, 'id'>) => boolean> = {
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
      return { ...base, outcome: 'not applicable', note: 'the client used TOPICS_API_KEY, which does not expire' };
    // The answer may be timed a little before the step by the two clocks (clock ms, real ms).
    const first = requests.find((e) => endOf(e) + STEP_TOLERANCE_MS >= playedAt(step) && met[step.kind](e));
    if (!first) return { ...base, outcome: 'not met', note: `the client never saw ${what[step.kind]}` };
    const lastMet = requests.filter((e) => e.at >= first.at && met[step.kind](e)).at(-1)!;
    // Carrying on: a later request that succeeded, or (an SDK's stream, which may end in the next
    // step's error) a later stream that delivered messages; or a retry that met a later step (the
    // exam interfered again before a patient client's retry could succeed).
    const later = steps.filter((s) => playedAt(s) > playedAt(step));
    const recovered = requests.some(
      (e) =>
        e.at > lastMet.at &&
        (step.kind !== 'token-expiry' || e.client !== lastMet.client) &&
        (succeeded(e) || later.some((s) => endOf(e) + STEP_TOLERANCE_MS >= playedAt(s) && met[s.kind](e))),
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

/** A step the client did not recover from fails the exam, but for a token it could not renew (reported only). */
const failsWhenNotRecovered = (step: StepResult) => step.outcome === 'not recovered' && step.kind !== 'token-expiry';

export interface ExamVerdict {
  /** 0 passed, 1 failed, 2 could not judge (nothing to judge, or situations the client never met). */
  exitCode: 0 | 1 | 2;
  verdict: 'passed' | 'failed' | 'could not judge';
  /** Why it failed or could not judge, one phrase each. */
  reasons: string[];
}

/**
 * The exam's verdict: failed on any failing rule, a failed end-to-end check or a step the
 * client never recovered from; otherwise it could not judge a client that sent nothing or never
 * met a step of the gauntlet; otherwise passed. Pure.
 */
export function verdictOf(input: {
  rules: readonly ExamRuleResult[];
  steps: readonly StepResult[];
  endToEnd: EndToEndResult;
  clients: number;
  strict: boolean;
}): ExamVerdict {
  const failed = [
    ...input.rules.filter((r) => fails(r, input.strict)).map((r) => `${r.id} violated (${r.level})`),
    ...(input.endToEnd.exercised && !input.endToEnd.passed ? ['the end-to-end check failed'] : []),
    ...input.steps.filter(failsWhenNotRecovered).map((s) => `no request succeeded after the ${s.kind}`),
  ];
  if (failed.length) return { exitCode: 1, verdict: 'failed', reasons: failed };
  const unjudged = [
    ...(input.clients === 0 ? ['the command sent no request with a credential'] : []),
    ...input.steps.filter((s) => s.outcome === 'not met').map((s) => `the client never met the ${s.kind}`),
  ];
  if (unjudged.length) return { exitCode: 2, verdict: 'could not judge', reasons: unjudged };
  return { exitCode: 0, verdict: 'passed', reasons: [] };
}
