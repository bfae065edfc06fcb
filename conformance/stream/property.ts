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
  /** Stop generating (and shrinking) after this long. */
  timeLimitMs: number;
  /** `SEED:PATH` to replay one scenario. */
  replay?: { seed: number; path: string };
  /** Name used in the replay token: `<name>@SEED:PATH`. */
  name: string;
}

export interface PropertyFailure {
  problems: Problem[];
  /** All exchanges of the failing (shrunk) scenario. */
  exchanges: Exchange[];
  counterexample: Counterexample;
}

export interface PropertyOutcome {
  /** Scenarios that ran (shrinking included). */
  scenarios: number;
  failure?: PropertyFailure;
  /** The time limit cut generation short before any failure. */
  interrupted: boolean;
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

  const property = (fails: (problems: Problem[]) => boolean) =>
    fc.asyncProperty(arbitrary, async (scenario) => {
      scenarios += 1;
      const run = await runScenario(env, scenario, scenarios);
      if (!fails(run.problems)) return true;
      // The last failing run fast-check sees is the counterexample it ends with.
      lastFailure = { scenario, run };
      return false;
    });
  const anyProblem = (problems: Problem[]): boolean => problems.length > 0;
  const started = Date.now();
  const timeLeft = (): number => Math.max(1, settings.timeLimitMs - (Date.now() - started));

  const seed = settings.replay?.seed ?? settings.seed;
  const first = await fc.check(property(anyProblem), {
    seed,
    numRuns: settings.runs,
    endOnFailure: true,
    ...(settings.replay ? { path: settings.replay.path } : {}),
    plugins: [fc.interruptAfterTimeLimit(timeLeft())],
  });
  // An exception (budget used up, control endpoint missing, a bug) is not a counterexample.
  if (first.failed && !lastFailure) throw first.errorInstance ?? new Error('the stream property failed without a scenario');
  if (!first.failed || !lastFailure) return { scenarios, interrupted: first.interrupted };

  let found: { scenario: Scenario; run: ScenarioRun } = lastFailure;
  let path = first.counterexamplePath ?? '';
  let shrinks = 0;
  if (!settings.replay) {
    // Shrink for the first rule the scenario broke, so the minimal case shows that rule.
    const rule = found.run.problems[0]!.rule;
    const shrunk = await fc.check(property((problems) => problems.some((p) => p.rule === rule)), {
      seed,
      path,
      plugins: [fc.interruptAfterTimeLimit(timeLeft())],
    });
    if (shrunk.failed && lastFailure.run.problems.some((p) => p.rule === rule)) {
      found = lastFailure;
      path = shrunk.counterexamplePath ?? path;
      shrinks = shrunk.numShrinks;
    }
  }
  return {
    scenarios,
    interrupted: false,
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
