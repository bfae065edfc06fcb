// One conformance run: load the document, check the target answers, run the selected
// rules in catalogue order, check every response on the way, and assemble the report.
// `runConformance` is the programmatic API; the CLI only parses flags and prints.
import { loadContract } from './contract.js';
import { ControlUnavailable } from './control.js';
import type { Exchange } from './exchange.js';
import { BudgetExhausted, Sender } from './http.js';
import { resolveOptions, UsageError, type ConformanceOptions, type ResolvedOptions } from './options.js';
import { preflight } from './preflight.js';
import { result, summarize, type ConformanceReport } from './report.js';
import { selectRules } from './rules/index.js';
import { RuleSkipped, type ActiveRule, type RuleContext } from './rules/types.js';
import { Secrets } from './secrets.js';
import { CONTROL_STREAM_RULE, Session } from './session.js';
import { runStream } from './stream/driver.js';
import { parseReplay } from './stream/property.js';
import { Target } from './target.js';

export { ConnectionError } from './preflight.js';

async function runActive(run: Session, rule: ActiveRule): Promise<void> {
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
    else
      state.findings.push({
        message: `the rule stopped with an error: ${error instanceof Error ? error.message : String(error)}`,
        exchanges: [],
      });
  }
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

  const chosen = selectRules(options.rules);
  const { unknown } = chosen;
  let selected = chosen.rules;
  if (unknown.length > 0) throw new UsageError(`--rules: no rule matches ${unknown.join(', ')} (see --list-rules)`);
  if (options.replay) {
    const { name } = parseReplay(options.replay);
    selected = selected.filter(
      (r) =>
        r.kind === 'response' ||
        (name === 'stream'
          ? r.kind === 'stream' || r.id === 'publish.success-204' || r.id === 'subscribe.success-200'
          : r.id === CONTROL_STREAM_RULE),
    );
  }

  const { control, reason } = await preflight(options, target, secrets);
  const run = new Session(options, contract, sender, target, secrets, selected, control, deadline);
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
        await runStream(
          run,
          'stream',
          [...streamIds, 'publish.success-204', 'subscribe.success-200'],
          Math.min(timeLeft() * 0.6, 30_000),
        );
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
