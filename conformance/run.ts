// One conformance run: load the document, check the target answers, run the selected
// rules in catalogue order, check every response on the way, and assemble the report.
// `runConformance` is the programmatic API; the CLI only parses flags and prints.
import { loadContract, type Contract } from './contract.js';
import { ControlPlane, ControlUnavailable, detectControlPlane } from './control.js';
import type { Exchange } from './exchange.js';
import { BudgetExhausted, Sender } from './http.js';
import { resolveOptions, UsageError, type ConformanceOptions, type ResolvedOptions } from './options.js';
import { reportRequests, summarize, type ConformanceReport, type ReportedFinding, type RuleResult } from './report.js';
import { SETTLE_MS } from './rules/helpers.js';
import { findRule, selectRules } from './rules/index.js';
import { RuleSkipped, type ActiveRule, type Finding, type Rule, type RuleContext } from './rules/types.js';
import { Secrets } from './secrets.js';
import { parseReplay, runStreamProperty } from './stream/property.js';
import type { StreamEnv } from './stream/runner.js';
import type { Problem } from './stream/subscriber.js';
import { Target } from './target.js';

/** The target could not be reached, or refused the credentials: exit code 2. */
export class ConnectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionError';
  }
}

const MAX_FINDINGS_SHOWN = 3;
/** The stream property that runs with control-plane steps reports under this rule. */
const CONTROL_STREAM_RULE = 'control.page-change-mid-stream';

interface RuleState {
  findings: Finding[];
  detail?: string;
  skipped?: string;
  /** Responses a response rule applied to. */
  checked: number;
  ran: boolean;
  durationMs?: number;
}

class Run {
  readonly states = new Map<string, RuleState>();
  readonly byId = new Map<number, Exchange>();

  constructor(
    readonly options: ResolvedOptions,
    readonly contract: Contract,
    readonly sender: Sender,
    readonly target: Target,
    readonly secrets: Secrets,
    readonly selected: Rule[],
    readonly control: ControlPlane | null,
    readonly deadline: number,
  ) {
    for (const rule of selected) this.states.set(rule.id, { findings: [], checked: 0, ran: false });
    sender.onExchange((exchange) => this.inspect(exchange));
  }

  state(id: string): RuleState | undefined {
    return this.states.get(id);
  }

  /** Response rules see every exchange, whichever rule sent it. */
  private inspect(exchange: Exchange): void {
    this.byId.set(exchange.id, exchange);
    for (const rule of this.selected) {
      if (rule.kind !== 'response') continue;
      const problems = rule.inspect(exchange, this.contract);
      if (problems === null) continue;
      const state = this.states.get(rule.id)!;
      state.checked += 1;
      for (const message of problems) state.findings.push({ message: `${message} (sent by ${exchange.rule})`, exchanges: [exchange] });
    }
  }

  /** Response-level problems of one exchange, for the stream property's verdict. */
  responseProblems(exchange: Exchange): Problem[] {
    const problems: Problem[] = [];
    for (const rule of this.selected) {
      if (rule.kind !== 'response') continue;
      for (const message of rule.inspect(exchange, this.contract) ?? []) problems.push({ rule: rule.id, message, exchangeIds: [exchange.id] });
    }
    return problems;
  }

  exchanges(ids: number[]): Exchange[] {
    return ids.map((id) => this.byId.get(id)).filter((e): e is Exchange => e !== undefined);
  }
}

async function runActive(run: Run, rule: ActiveRule): Promise<void> {
  const state = run.state(rule.id)!;
  const ctx: RuleContext = {
    rule,
    target: run.target,
    contract: run.contract,
    options: run.options,
    control: run.control,
    fail: (message, exchanges = []) => {
      state.findings.push({ message, exchanges });
    },
    expect: (ok, message, exchanges = []) => {
      if (!ok) state.findings.push({ message, exchanges });
      return ok;
    },
    note: (text) => {
      state.detail = text;
    },
    skip: (reason) => {
      throw new RuleSkipped(reason);
    },
  };
  if (rule.needs?.includes('control') && !run.control) {
    state.skipped = 'needs the emulator control plane, which this run does not use';
    return;
  }
  try {
    state.ran = true;
    await rule.run(ctx);
  } catch (error) {
    if (error instanceof RuleSkipped || error instanceof ControlUnavailable) state.skipped = error.message;
    else if (error instanceof BudgetExhausted) state.skipped = error.message;
    else state.findings.push({ message: `the rule stopped with an error: ${error instanceof Error ? error.message : String(error)}`, exchanges: [] });
  }
}

/** Runs a stream property and files its problems under their rules. */
async function runStream(run: Run, name: 'stream' | 'control-stream', ruleIds: string[], timeLimitMs: number): Promise<void> {
  const control = name === 'control-stream';
  const env: StreamEnv = {
    rule: name,
    target: run.target,
    control: run.control,
    inspect: (exchange) => run.responseProblems(exchange),
    scenarioTimeoutMs: Math.max(8000, run.options.pollTimeoutMs + 5000),
    nudgeAfterMs: 300,
    settleMs: SETTLE_MS,
  };
  const replay = run.options.replay ? parseReplay(run.options.replay) : undefined;
  try {
    const outcome = await runStreamProperty(env, {
      seed: run.options.seed,
      runs: run.options.runs,
      payloadLimit: run.options.payloadLimit,
      control,
      timeLimitMs,
      shrinkTimeMs: Math.min(run.options.shrinkTimeMs, Math.max(0, run.deadline - Date.now())),
      name,
      // Observed rules are warnings, never failures; the plain stream property fails only on
      // selected rules, the control one on any (it reports them all under its own rule).
      fails: (problem) => findRule(problem.rule)?.level !== 'observed' && (control || run.state(problem.rule) !== undefined),
      ...(replay && replay.name === name ? { replay } : {}),
    });
    for (const problem of outcome.observed) {
      const state = run.state(problem.rule);
      if (state && !state.findings.some((f) => f.message === problem.message)) state.findings.push({ message: problem.message, exchanges: run.exchanges(problem.exchangeIds) });
    }
    const note = `${outcome.scenarios} scenario(s)${outcome.interrupted ? ', cut short by the time budget' : ''}`;
    for (const id of ruleIds) {
      const state = run.state(id);
      if (state) {
        state.ran = true;
        state.detail ??= note;
      }
    }
    if (!outcome.failure) return;
    const { problems, exchanges, counterexample } = outcome.failure;
    const setup = exchanges.filter((e) => e.operation === 'publish' || e.operation === 'control');
    const seen = new Set<string>();
    for (const problem of problems) {
      const id = control ? CONTROL_STREAM_RULE : problem.rule;
      const state = run.state(id);
      if (!state || seen.has(id)) continue;
      seen.add(id);
      const message = control ? `${problem.rule}: ${problem.message}` : problem.message;
      const shown = run.exchanges(problem.exchangeIds);
      state.findings.unshift({ message, exchanges: [...setup, ...shown], counterexample });
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const skippable = error instanceof BudgetExhausted || error instanceof ControlUnavailable;
    for (const id of ruleIds) {
      const state = run.state(id);
      if (!state) continue;
      // publish.success-204 and subscribe.success-200 also run on their own: keep what they found.
      if (skippable) state.skipped ??= state.ran ? undefined : reason;
      else state.findings.push({ message: `the stream property stopped with an error: ${reason}`, exchanges: [] });
    }
  }
}

/** Checks that the target answers and accepts the token, and detects the control plane. */
async function preflight(options: ResolvedOptions, target: Target, secrets: Secrets): Promise<{ control: ControlPlane | null; reason: string }> {
  const health = await target.control('preflight', 'GET', '/_emulator/health');
  if (health.status === undefined) throw new ConnectionError(`cannot reach ${options.baseUrl}: ${health.error}`);
  const probe = await target.publishText('preflight', target.newTopic('preflight'), `conformance preflight ${options.runId}`);
  if (probe.status === undefined) throw new ConnectionError(`cannot reach ${options.baseUrl}: ${probe.error}`);
  if (probe.status === 401 || probe.status === 403) throw new ConnectionError(`the token was refused: a publish to cache ${options.cache} answered ${probe.status}`);
  if (probe.status === 404) throw new ConnectionError(`cache ${options.cache} does not exist (a publish answered 404); pass an existing cache with --cache`);
  if (options.control === 'off') return { control: null, reason: 'switched off with --control off' };
  const plane = new ControlPlane(target, (token) => secrets.addIssued(token));
  if (options.control === 'on') return { control: plane, reason: 'switched on with --control on' };
  const detected = await detectControlPlane(target, 'preflight');
  return { control: detected.available ? plane : null, reason: detected.reason };
}

function toFinding(finding: Finding, secrets: Secrets): ReportedFinding {
  const reported: ReportedFinding = { message: secrets.redact(finding.message), requests: reportRequests(finding.exchanges, secrets) };
  if (finding.counterexample) reported.counterexample = { ...finding.counterexample, steps: finding.counterexample.steps.map((s) => secrets.redact(s)) };
  return reported;
}

function result(rule: Rule, state: RuleState | undefined, secrets: Secrets): RuleResult {
  const base = {
    id: rule.id,
    title: rule.title,
    level: rule.level,
    kind: rule.kind,
    source: rule.source,
    ...(state?.durationMs !== undefined ? { durationMs: state.durationMs } : {}),
  };
  if (!state) return { ...base, status: 'skipped', detail: 'not selected', findings: [], findingCount: 0 };
  if (state.skipped && state.findings.length === 0) return { ...base, status: 'skipped', detail: state.skipped, findings: [], findingCount: 0 };
  // The same fault seen on many responses: report each message once.
  const unique = [...new Map(state.findings.map((f) => [f.message.replace(/ \(sent by [^)]*\)$/, ''), f])).values()];
  if (unique.length > 0) {
    return {
      ...base,
      status: rule.level === 'observed' ? 'warning' : 'failed',
      findings: unique.slice(0, MAX_FINDINGS_SHOWN).map((f) => toFinding(f, secrets)),
      findingCount: unique.length,
    };
  }
  if (rule.kind === 'response') {
    if (state.checked === 0) return { ...base, status: 'skipped', detail: 'no response it applies to was seen', findings: [], findingCount: 0 };
    return { ...base, status: 'passed', detail: `${state.checked} response(s) checked`, findings: [], findingCount: 0 };
  }
  if (!state.ran) return { ...base, status: 'skipped', detail: state.skipped ?? 'did not run (time budget)', findings: [], findingCount: 0 };
  return { ...base, status: 'passed', ...(state.detail ? { detail: secrets.redact(state.detail) } : {}), findings: [], findingCount: 0 };
}

/** A run's report with everything it sent, for the differential mode. */
export interface ExecutedRun {
  report: ConformanceReport;
  exchanges: Exchange[];
  options: ResolvedOptions;
}

export async function runConformance(input: ConformanceOptions): Promise<ConformanceReport> {
  return (await executeConformance(input)).report;
}

export async function executeConformance(input: ConformanceOptions): Promise<ExecutedRun> {
  const options = resolveOptions(input);
  const started = Date.now();
  const deadline = started + options.timeBudgetMs;
  const contract = await loadContract();
  const secrets = new Secrets();
  secrets.add(options.token, 'TOKEN');
  secrets.add(options.restrictedToken, 'RESTRICTED_TOKEN');
  secrets.add(options.expiredToken, 'EXPIRED_TOKEN');
  secrets.add(options.adminKey, 'ADMIN_KEY');
  const sender = new Sender({
    baseUrl: options.baseUrl,
    maxRequests: options.maxRequests,
    concurrency: options.concurrency,
    ratePerSecond: options.rate,
    maxRetryAfterMs: 10_000,
    maxRetries: 5,
  });
  const target = new Target(sender, {
    cache: options.cache,
    missingCache: options.missingCache,
    runId: options.runId,
    token: options.token,
    pollTimeoutMs: options.pollTimeoutMs,
    ...(options.adminKey ? { adminKey: options.adminKey } : {}),
  });

  let { rules: selected, unknown } = selectRules(options.rules);
  if (unknown.length > 0) throw new UsageError(`--rules: no rule matches ${unknown.join(', ')} (see --list-rules)`);
  if (options.replay) {
    const { name } = parseReplay(options.replay);
    selected = selected.filter((r) => r.kind === 'response' || (name === 'stream' ? r.kind === 'stream' || r.id === 'publish.success-204' || r.id === 'subscribe.success-200' : r.id === CONTROL_STREAM_RULE));
  }

  const { control, reason } = await preflight(options, target, secrets);
  const run = new Run(options, contract, sender, target, secrets, selected, control, deadline);
  const streamIds = selected.filter((r) => r.kind === 'stream').map((r) => r.id);
  const timeLeft = (): number => deadline - Date.now();
  let streamDone = false;

  for (const rule of selected) {
    if (rule.kind === 'response') continue;
    const state = run.state(rule.id)!;
    const ruleStarted = Date.now();
    if (rule.kind === 'stream' && streamDone) continue;
    if (timeLeft() <= 0) {
      state.skipped = 'time budget used up before it ran';
      continue;
    }
    if (rule.kind === 'stream') {
      if (!streamDone) {
        streamDone = true;
        await runStream(run, 'stream', [...streamIds, 'publish.success-204', 'subscribe.success-200'], Math.min(timeLeft() * 0.6, 30_000));
      }
    } else if (rule.id === CONTROL_STREAM_RULE) {
      if (!control) state.skipped = 'needs the emulator control plane, which this run does not use';
      else await runStream(run, 'control-stream', [CONTROL_STREAM_RULE], Math.min(timeLeft() * 0.6, 15_000));
    } else if (!options.replay) {
      await runActive(run, rule);
    }
    state.durationMs = Date.now() - ruleStarted;
    options.onProgress?.(`${rule.id}: ${state.findings.length > 0 ? 'findings' : 'done'} (${state.durationMs} ms)`);
  }

  const rules = [...selected].map((rule) => result(rule, run.state(rule.id), secrets));
  const summary = summarize(rules);
  const report: ConformanceReport = {
    tool: 'topics-conformance',
    target: { baseUrl: options.baseUrl, cache: options.cache },
    runId: options.runId,
    seed: options.seed,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    requests: sender.count,
    throttled: sender.throttled,
    control: { available: control !== null, reason },
    rules,
    summary,
    exitCode: summary.failed > 0 ? 1 : 0,
    variables: secrets.variables(),
  };
  return { report, exchanges: sender.exchanges, options };
}

export { findRule };
