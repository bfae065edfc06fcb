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
  if (!match) throw new Error(`--replay expects NAME@SEED:PATH (as printed with a failure), got ${JSON.stringify(value)}`);
  return { name: match[1]!, seed: Number(match[2]), path: match[3]! };
}

export async function runStreamProperty(env: StreamEnv, settings: PropertySettings): Promise<PropertyOutcome> {
  const arbitrary = scenarioArbitrary({ payloadLimit: settings.payloadLimit, control: settings.control });
  let scenarios = 0;
  let lastFailure: { scenario: Scenario; run: ScenarioRun } | undefined;
  const observed = new Map<string, Problem>();

  let stopAt = Date.now() + settings.timeLimitMs;
  let cutShort = false;
  const property = (fails: (problems: Problem[]) => boolean) =>
    fc.asyncProperty(arbitrary, async (scenario) => {
      // Past the time limit, the remaining runs (and shrink attempts) pass without a request.
      // Unlike fast-check's interrupt, this never discards a failure found by a running scenario.
      if (Date.now() > stopAt) {
        cutShort = true;
        return true;
      }
      scenarios += 1;
      const run = await runScenario(env, scenario, scenarios);
      for (const problem of run.problems) if (!settings.fails(problem) && !observed.has(problem.rule)) observed.set(problem.rule, problem);
      run.problems = run.problems.filter((p) => settings.fails(p));
      if (!fails(run.problems)) return true;
      // The last failing run fast-check sees is the counterexample it ends with.
      lastFailure = { scenario, run };
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
  if (first.failed && !lastFailure) throw first.errorInstance ?? new Error('the stream property failed without a scenario');
  if (!first.failed || !lastFailure) return { scenarios, interrupted: cutShort, observed: [...observed.values()] };

  const generated = scenarios;
  let found: { scenario: Scenario; run: ScenarioRun } = lastFailure;
  let path = first.counterexamplePath ?? '';
  let shrinks = 0;
  if (!settings.replay) {
    // Shrink for the first rule the scenario broke, so the minimal case shows that rule.
    const rule = found.run.problems[0]!.rule;
    stopAt = Date.now() + settings.shrinkTimeMs;
    const shrunk = await fc.check(property((problems) => problems.some((p) => p.rule === rule)), { seed, path });
    if (shrunk.failed && lastFailure.run.problems.some((p) => p.rule === rule)) {
      found = lastFailure;
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
