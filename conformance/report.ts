// The report a run produces: plain data, tokens already redacted, ready for the table,
// JSON and JUnit reporters and for tests.
import { toCurl } from './curl.js';
import { bodyText, describeExchange, type Exchange } from './exchange.js';
import type { Counterexample, Finding, Level, Rule } from './rules/types.js';
import type { Secrets } from './secrets.js';
import type { RuleState } from './session.js';

/** observed: an observation rule ran and recorded what the endpoint does (in `detail`); never a failure. */
export type RuleStatus = 'passed' | 'failed' | 'warning' | 'observed' | 'skipped';

export interface ReportedRequest {
  /** `POST /topics/c/t -> 204` */
  summary: string;
  /** The response body, shortened, for reading. */
  response?: string;
  curl: string;
}

export interface ReportedFinding {
  message: string;
  requests: ReportedRequest[];
  counterexample?: Counterexample;
}

export interface RuleResult {
  id: string;
  title: string;
  level: Level;
  kind: 'active' | 'response' | 'stream';
  source: string;
  status: RuleStatus;
  /** Why it was skipped, a short note on a pass, or what an observation rule observed. */
  detail?: string;
  findings: ReportedFinding[];
  /** All findings, of which `findings` holds the first few. */
  findingCount: number;
  /** Time spent running it (active and stream rules). */
  durationMs?: number;
}

export interface ConformanceReport {
  tool: string;
  target: { baseUrl: string; cache: string };
  runId: string;
  seed: number;
  startedAt: string;
  durationMs: number;
  requests: number;
  /** 429 answers waited out (Retry-After honoured). */
  throttled: number;
  control: { available: boolean; reason: string };
  rules: RuleResult[];
  summary: Record<RuleStatus, number>;
  /** 0: every rule that ran passed; 1: a rule failed. */
  exitCode: 0 | 1;
  /** Shell variables the curl commands use, to export before pasting them. */
  variables: string[];
}

const MAX_REQUESTS_PER_FINDING = 40;

export function reportRequests(exchanges: Exchange[], secrets: Secrets): ReportedRequest[] {
  const unique = [...new Map(exchanges.map((e) => [e.id, e])).values()].sort((a, b) => a.id - b.id);
  return unique.slice(0, MAX_REQUESTS_PER_FINDING).map((exchange) => {
    const text = bodyText(exchange);
    const request: ReportedRequest = {
      summary: describeExchange(exchange, (t) => secrets.redact(t)),
      curl: toCurl(exchange, secrets),
    };
    if (text.length > 0) request.response = secrets.redact(text.length > 300 ? `${text.slice(0, 300)}…` : text);
    return request;
  });
}

export function summarize(rules: RuleResult[]): Record<RuleStatus, number> {
  const summary: Record<RuleStatus, number> = { passed: 0, failed: 0, warning: 0, observed: 0, skipped: 0 };
  for (const rule of rules) summary[rule.status] += 1;
  return summary;
}

const MAX_FINDINGS_SHOWN = 3;

function toFinding(finding: Finding, secrets: Secrets): ReportedFinding {
  const reported: ReportedFinding = {
    message: secrets.redact(finding.message),
    requests: reportRequests(finding.exchanges, secrets),
  };
  if (finding.counterexample)
    reported.counterexample = {
      ...finding.counterexample,
      steps: finding.counterexample.steps.map((s) => secrets.redact(s)),
    };
  return reported;
}

/** What a rule's state comes to in the report: passed, failed, warning (observed), observed (observation) or skipped. */
export function result(rule: Rule, state: RuleState | undefined, secrets: Secrets): RuleResult {
  const base = {
    id: rule.id,
    title: rule.title,
    level: rule.level,
    kind: rule.kind,
    source: rule.source,
    ...(state?.durationMs !== undefined ? { durationMs: state.durationMs } : {}),
  };
  if (!state) return { ...base, status: 'skipped', detail: 'not selected', findings: [], findingCount: 0 };
  if (state.skipped && state.findings.length === 0)
    return { ...base, status: 'skipped', detail: state.skipped, findings: [], findingCount: 0 };
  // The same fault seen on many responses: report each message once.
  const unique = [...new Map(state.findings.map((f) => [f.message.replace(/ \(sent by [^)]*\)$/, ''), f])).values()];
  if (rule.level === 'observation' && rule.kind === 'response' && state.checked > 0) {
    // What it looks for, seen or not: the findings are the evidence.
    const seen =
      unique.length > 0
        ? `seen in ${unique.length} of ${state.checked} answer(s)`
        : `not seen in ${state.checked} answer(s)`;
    return {
      ...base,
      status: 'observed',
      detail: seen,
      findings: unique.slice(0, MAX_FINDINGS_SHOWN).map((f) => toFinding(f, secrets)),
      findingCount: unique.length,
    };
  }
  if (rule.level === 'observation' && unique.length === 0 && state.ran && state.detail) {
    return { ...base, status: 'observed', detail: secrets.redact(state.detail), findings: [], findingCount: 0 };
  }
  if (unique.length > 0) {
    return {
      ...base,
      status: rule.level === 'observed' || rule.level === 'observation' ? 'warning' : 'failed',
      findings: unique.slice(0, MAX_FINDINGS_SHOWN).map((f) => toFinding(f, secrets)),
      findingCount: unique.length,
    };
  }
  if (rule.kind === 'response') {
    if (state.checked === 0)
      return {
        ...base,
        status: 'skipped',
        detail: 'no response it applies to was seen',
        findings: [],
        findingCount: 0,
      };
    return { ...base, status: 'passed', detail: `${state.checked} response(s) checked`, findings: [], findingCount: 0 };
  }
  if (!state.ran)
    return {
      ...base,
      status: 'skipped',
      detail: state.skipped ?? 'did not run (time budget)',
      findings: [],
      findingCount: 0,
    };
  return {
    ...base,
    status: 'passed',
    ...(state.detail ? { detail: secrets.redact(state.detail) } : {}),
    findings: [],
    findingCount: 0,
  };
}
