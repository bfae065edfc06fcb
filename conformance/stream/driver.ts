// Runs a stream property for a run and files what it found under the rules: each problem of
// the shrunk counterexample under its own rule (the control property: all under its rule),
// observed-level problems as warnings.
import { ControlUnavailable } from '../control.js';
import { BudgetExhausted } from '../http.js';
import { findRule } from '../rules/index.js';
import { CONTROL_STREAM_RULE, type Session } from '../session.js';
import { parseReplay, runStreamProperty } from './property.js';
import type { StreamEnv } from './runner.js';

/** Runs a stream property and files its problems under their rules. */
export async function runStream(
  run: Session,
  name: 'stream' | 'control-stream',
  ruleIds: string[],
  timeLimitMs: number,
): Promise<void> {
  const control = name === 'control-stream';
  const env: StreamEnv = {
    rule: name,
    target: run.target,
    control: run.control,
    inspect: (exchange) => run.responseProblems(exchange),
    scenarioTimeoutMs: Math.max(8000, run.options.pollTimeoutMs + 5000),
    pace: run.target.pace,
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
      fails: (problem) =>
        findRule(problem.rule)?.level !== 'observed' && (control || run.state(problem.rule) !== undefined),
      ...(replay && replay.name === name ? { replay } : {}),
    });
    for (const problem of outcome.observed) {
      const state = run.state(problem.rule);
      if (state && !state.findings.some((f) => f.message === problem.message))
        state.findings.push({ message: problem.message, exchanges: run.exchanges(problem.exchangeIds) });
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
      if (skippable) {
        if (!state.ran) state.skipped ??= reason;
      } else state.findings.push({ message: `the stream property stopped with an error: ${reason}`, exchanges: [] });
    }
  }
}
