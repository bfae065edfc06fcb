// The stream property with fast-check: generated scenarios over real HTTP, seeded. On a
// failure it shrinks, keeping the first broken rule broken, to the smallest scenario that
// still shows it; the seed and path replay exactly that scenario (`--replay stream@SEED:PATH`).
import fc from 'fast-check';
import type { Exchange } from '../exchange.js';
import type { Counterexample } from '../rules/types.js';
import { runScenario, type ScenarioRun, type StreamEnv } from './runner.js';
import { describeScenario, scenarioArbitrary, type Scenario } from './scenario.js';
import type { Problem } from './subscriber.js';

export interface PropertySettings {
  seed: number;
  runs: number;
  payloadLimit: number;
  /** Include control-plane steps (topic resets). */
  control: boolean;
  /** Stop generating after this long; the runs left pass without a request. */
  timeLimitMs: number;
  /** Stop shrinking after this long; the smallest failing scenario so far is reported. */
  shrinkTimeMs: number;
  /** `SEED:PATH` to replay one scenario. */
  replay?: { seed: number; path: string };
  /** Name used in the replay token: `<name>@SEED:PATH`. */
  name: string;
  /** Whether a problem fails the property; the others (observed level) are only collected. */
  fails(problem: Problem): boolean;
}

export interface PropertyFailure {
  problems: Problem[];
  /** All exchanges of the failing (shrunk) scenario. */
  exchanges: Exchange[];
  counterexample: Counterexample;
}

export interface PropertyOutcome {
  /** Generated scenarios that ran (not counting shrink attempts). */
  scenarios: number;
  failure?: PropertyFailure;
  /** The time limit cut generation short before any failure. */
  interrupted: boolean;
  /** Problems that do not fail the property (observed level), the first of each rule. */
  observed: Problem[];
}

export function parseReplay(value: string): { name: string; seed: number; path: string } {
  const match = /^([a-z-]+)@(-?\d+):([\d:]*)$/.exec(value.trim());
  if (!match)
    throw new Error(`--replay expects NAME@SEED:PATH (as printed with a failure), got ${JSON.stringify(value)}`);
  return { name: match[1]!, seed: Number(match[2]), path: match[3]! };
}

export async function runStreamProperty(env: StreamEnv, settings: PropertySettings): Promise<PropertyOutcome> {
  const arbitrary = scenarioArbitrary({ payloadLimit: settings.payloadLimit, control: settings.control });
  let scenarios = 0;
  let lastFailure: { scenario: Scenario; run: ScenarioRun } | undefined;
  /** Every failing run by its scenario, to pick the one fast-check ends with. */
  const failures = new Map<string, ScenarioRun>();
  const observed = new Map<string, Problem>();

  let stopAt = Date.now() + settings.timeLimitMs;
  let cutShort = false;
  // Shrinking stops through fast-check's interrupt (which keeps the smallest failure so far);
  // the scenario it cuts off is cancelled, and nothing it finds afterwards counts.
  let cancelled = false;
  let inFlight: Promise<unknown> | undefined;
  const scenarioEnv: StreamEnv = { ...env, cancelled: () => cancelled };
  const property = (fails: (problems: Problem[]) => boolean) =>
    fc.asyncProperty(arbitrary, async (scenario) => {
      // Past the time limit, the remaining generated runs pass without a request: unlike
      // fast-check's interrupt, this never discards a failure a running scenario finds.
      if (Date.now() > stopAt) {
        cutShort = true;
        return true;
      }
      scenarios += 1;
      const running = runScenario(scenarioEnv, scenario, scenarios);
      inFlight = running;
      const run = await running;
      if (cancelled) return true;
      for (const problem of run.problems)
        if (!settings.fails(problem) && !observed.has(problem.rule)) observed.set(problem.rule, problem);
      run.problems = run.problems.filter((p) => settings.fails(p));
      if (!fails(run.problems)) return true;
      // The last failing run fast-check sees is the counterexample it ends with.
      lastFailure = { scenario, run };
      failures.set(fc.stringify(scenario), run);
      return false;
    });
  const anyProblem = (problems: Problem[]): boolean => problems.length > 0;

  const seed = settings.replay?.seed ?? settings.seed;
  const first = await fc.check(property(anyProblem), {
    seed,
    numRuns: settings.runs,
    endOnFailure: true,
    ...(settings.replay ? { path: settings.replay.path } : {}),
  });
  // An exception (budget used up, control endpoint missing, a bug) is not a counterexample.
  if (first.failed && !lastFailure) {
    const error: unknown = first.errorInstance;
    throw error instanceof Error
      ? error
      : new Error('the stream property failed without a scenario', error === undefined ? {} : { cause: error });
  }
  if (!first.failed || !lastFailure) return { scenarios, interrupted: cutShort, observed: [...observed.values()] };

  const generated = scenarios;
  let found: { scenario: Scenario; run: ScenarioRun } = lastFailure;
  let path = first.counterexamplePath ?? '';
  let shrinks = 0;
  if (!settings.replay) {
    // Shrink for the first rule the scenario broke, so the minimal case shows that rule.
    const rule = found.run.problems[0]!.rule;
    stopAt = Number.POSITIVE_INFINITY;
    const shrunk = await fc.check(
      property((problems) => problems.some((p) => p.rule === rule)),
      {
        seed,
        path,
        plugins: [fc.interruptAfterTimeLimit(Math.max(1, settings.shrinkTimeMs))],
      },
    );
    cancelled = true;
    await inFlight?.catch(() => undefined);
    // The counterexample fast-check reports, not merely the last run that failed: an interrupt
    // may land between a run's failure and fast-check taking note of it.
    const ended = (shrunk.counterexample as [Scenario] | null)?.[0];
    const endedRun = ended ? failures.get(fc.stringify(ended)) : undefined;
    if (shrunk.failed && ended && endedRun?.problems.some((p) => p.rule === rule)) {
      found = { scenario: ended, run: endedRun };
      path = shrunk.counterexamplePath ?? path;
      shrinks = shrunk.numShrinks;
    }
  }
  return {
    scenarios: generated,
    interrupted: false,
    observed: [...observed.values()],
    failure: {
      problems: found.run.problems,
      exchanges: found.run.exchanges,
      counterexample: {
        steps: describeScenario(found.scenario),
        replay: `${settings.name}@${seed}:${path}`,
        runs: first.numRuns,
        shrinks,
      },
    },
  };
}
