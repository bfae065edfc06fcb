import { readNamedFile } from '../files.js';
import { checked } from '../control/validation.js';
import type { Scenario } from '../../openapi/generated/control-types.js';
import { ScenarioError } from '../scenario/load.js';
import { parseYaml } from '../yaml.js';
import { nearest } from '../nearest.js';

// What an exam plays against the client: its publishing plan and its gauntlet (steps at
// times from the start). `standard` spreads the five steps over the duration; `compact` plays
// them in about six seconds (the project's own tests); a file is a scenario (the control
// plane's Scenario format) plus an `exam` member with the plan.

/** How long the exam waits for the command's first request unless --start-timeout says. */
export const DEFAULT_START_TIMEOUT_MS = 120_000;

export const stepKinds = ['page-change', 'throttle', 'drop-waiting', 'outage', 'token-expiry'] as const;
export type ExamStepKind = (typeof stepKinds)[number];

export interface ExamStep {
  kind: ExamStepKind;
  /** Milliseconds from the start. */
  atMs: number;
  /** throttle: how many 429s in a row (default 3). */
  count?: number;
  /** throttle: the Retry-After of each (default 1). */
  retryAfterSeconds?: number;
  /** outage: how long subscribes answer 503 (default 2000 ms). */
  durationMs?: number;
}

export interface ExamPlan {
  name: string;
  durationMs: number;
  /** A numbered message every this many ms... */
  publishEveryMs: number;
  /** ...until this many ms from the start (then the client has time to receive the last). */
  publishUntilMs: number;
  steps: ExamStep[];
  /**
   * Stretches without publishing (ms from the start), longer than the long-poll timeout: the
   * client gets `{"items":[]}`. Right after its first empty answer in a stretch, one message is
   * published at once: a client that polls again with its cursor gets it, one that polls without
   * a cursor loses it.
   */
  quiet: { fromMs: number; toMs: number }[];
  /** Every this many publishes, BURST_SIZE messages at once (0: none): a client that polls without a cursor loses all but the first. */
  burstEvery: number;
  /** The emulator's long-poll timeout during the exam (an emulator flag overrides it). */
  longPollTimeoutMs: number;
  /** Faults, limits, chaos... applied at the start (a scenario file's own members). */
  scenario?: Scenario;
}

export const DEFAULT_DURATION_MS = 60_000;
/** How many messages a burst publishes in one go. */
export const BURST_SIZE = 3;

/** The bounds of a plan: every duration and count has one, checked before anything starts. */
export const PLAN_BOUNDS = {
  durationMs: { min: 1000, max: 3_600_000 },
  publishEveryMs: { min: 10, max: 60_000 },
  longPollTimeoutMs: { min: 100, max: 60_000 },
  count: { max: 1000 },
  retryAfterSeconds: { max: 60 },
  burstEvery: { max: 1000 },
} as const;

/**
 * The five steps spread over the duration. Publishing pauses for a while early on (longer
 * than the exam's long-poll timeout, so the client gets `{"items":[]}`, and its waiting poll is
 * dropped meanwhile), and stops at 88% so the last messages can arrive.
 */
export function standardPlan(durationMs = DEFAULT_DURATION_MS): ExamPlan {
  const at = (share: number) => Math.round(durationMs * share);
  return {
    name: 'standard',
    durationMs,
    publishEveryMs: 200,
    publishUntilMs: at(0.88),
    quiet: [{ fromMs: at(0.1), toMs: at(0.3) }],
    burstEvery: 10,
    longPollTimeoutMs: Math.min(5000, at(0.08)),
    steps: [
      { kind: 'drop-waiting', atMs: at(0.25) },
      { kind: 'throttle', atMs: at(0.35), count: 3, retryAfterSeconds: 1 },
      { kind: 'page-change', atMs: at(0.45) },
      { kind: 'outage', atMs: at(0.55), durationMs: Math.min(5000, at(0.08)) },
      { kind: 'token-expiry', atMs: at(0.75) },
    ],
  };
}

/** The same gauntlet in about seven seconds (a Retry-After of 1 s is its longest wait). */
export function compactPlan(durationMs = 6800): ExamPlan {
  return {
    name: 'compact',
    durationMs,
    publishEveryMs: 100,
    publishUntilMs: Math.min(6200, durationMs - 600),
    quiet: [{ fromMs: 600, toMs: 2600 }],
    burstEvery: 8,
    longPollTimeoutMs: 700,
    steps: [
      { kind: 'drop-waiting', atMs: 2300 },
      { kind: 'throttle', atMs: 2800, count: 1, retryAfterSeconds: 1 },
      { kind: 'page-change', atMs: 3500 },
      { kind: 'outage', atMs: 4100, durationMs: 1000 },
      { kind: 'token-expiry', atMs: 5600 },
    ],
  };
}

export class ExamPlanError extends Error {
  override name = 'ExamPlanError';
}

function stepOf(value: unknown, where: string): ExamStep {
  const step = value as Partial<ExamStep> | null;
  if (typeof step !== 'object' || step === null) throw new ExamPlanError(`${where} must be an object`);
  const unknown = Object.keys(step).filter(
    (key) => !['kind', 'atMs', 'count', 'retryAfterSeconds', 'durationMs'].includes(key),
  );
  if (unknown.length)
    throw new ExamPlanError(
      `${where} has no member ${unknown.join(', ')} (a step takes kind, atMs, count, retryAfterSeconds, durationMs)`,
    );
  if (!stepKinds.includes(step.kind as ExamStepKind))
    throw new ExamPlanError(`${where}.kind must be one of ${stepKinds.join(', ')}`);
  for (const key of ['atMs', 'count', 'retryAfterSeconds', 'durationMs'] as const) {
    const n = step[key];
    if (n !== undefined && (!Number.isSafeInteger(n) || n < 0))
      throw new ExamPlanError(`${where}.${key} must be a whole number`);
  }
  if (step.atMs === undefined) throw new ExamPlanError(`${where} needs atMs`);
  return step as ExamStep;
}

/**
 * The most steps a plan may play: far more than a minute's gauntlet holds (the standard plan has
 * five), and few enough that judging, which looks at each step's window of the journal, stays
 * quick whatever the plan.
 */
export const MAX_STEPS = 100;

/** A plan file: a scenario plus `exam: { durationMs, publishEveryMs, publishUntilMs, steps }`. */
export function parsePlan(text: string, source: string, durationMs?: number): ExamPlan {
  let value: Record<string, unknown>;
  try {
    value = parseYaml(text) as Record<string, unknown>;
  } catch (error) {
    throw new ExamPlanError(`${source} is not valid YAML or JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ExamPlanError(`${source} must hold an object`);
  const { exam = {}, ...scenario } = value as { exam?: Record<string, unknown> } & Record<string, unknown>;
  if (typeof exam !== 'object' || exam === null || Array.isArray(exam))
    throw new ExamPlanError(`${source}: exam must be an object`);
  const known = ['durationMs', 'publishEveryMs', 'publishUntilMs', 'longPollTimeoutMs', 'burstEvery', 'steps'];
  const unknown = Object.keys(exam).filter((key) => !known.includes(key));
  if (unknown.length)
    throw new ExamPlanError(`${source}: exam has no member ${unknown.join(', ')} (it takes ${known.join(', ')})`);
  for (const key of ['durationMs', 'publishEveryMs', 'publishUntilMs', 'longPollTimeoutMs']) {
    const n = exam[key];
    if (n !== undefined && (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1))
      throw new ExamPlanError(`${source}: exam.${key} must be a whole number of milliseconds, at least 1`);
  }
  if (exam.burstEvery !== undefined && (!Number.isSafeInteger(exam.burstEvery) || (exam.burstEvery as number) < 0))
    throw new ExamPlanError(`${source}: exam.burstEvery must be a whole number (0: no bursts)`);
  const base = standardPlan(durationMs ?? (exam.durationMs as number | undefined) ?? DEFAULT_DURATION_MS);
  const steps = exam.steps === undefined ? base.steps : exam.steps;
  if (!Array.isArray(steps)) throw new ExamPlanError(`${source}: exam.steps must be a list`);
  if (steps.length > MAX_STEPS)
    throw new ExamPlanError(`${source}: exam.steps may hold at most ${MAX_STEPS} steps (it has ${steps.length})`);
  let checkedScenario: Scenario | undefined;
  try {
    if (Object.keys(scenario).length > 0) checkedScenario = checked('Scenario', scenario);
  } catch (error) {
    throw new ScenarioError(
      `${source}: ${(error as Error).message.replace('The request body is invalid: body', 'the scenario')}`,
    );
  }
  return {
    name: typeof scenario.name === 'string' ? scenario.name : source,
    durationMs: base.durationMs,
    publishEveryMs: (exam.publishEveryMs as number | undefined) ?? base.publishEveryMs,
    publishUntilMs: (exam.publishUntilMs as number | undefined) ?? base.publishUntilMs,
    steps: steps.map((s, i) => stepOf(s, `${source}: exam.steps[${i}]`)),
    quiet: exam.steps === undefined ? base.quiet : [],
    burstEvery: (exam.burstEvery as number | undefined) ?? base.burstEvery,
    longPollTimeoutMs: (exam.longPollTimeoutMs as number | undefined) ?? base.longPollTimeoutMs,
    ...(checkedScenario ? { scenario: checkedScenario } : {}),
  };
}

/**
 * Every bound of a plan, checked before anything starts (a plan that passes cannot fail
 * mid-run): durations and counts within PLAN_BOUNDS, every time within the exam.
 */
export function checkPlan(plan: ExamPlan): ExamPlan {
  const where = plan.name;
  const within = (what: string, n: number, min: number, max: number) => {
    if (!Number.isSafeInteger(n) || n < min || n > max)
      throw new ExamPlanError(`${where}: ${what} must be a whole number from ${min} to ${max} (got ${n})`);
  };
  const b = PLAN_BOUNDS;
  within('the duration (ms)', plan.durationMs, b.durationMs.min, b.durationMs.max);
  within('exam.publishEveryMs', plan.publishEveryMs, b.publishEveryMs.min, b.publishEveryMs.max);
  within('exam.publishUntilMs', plan.publishUntilMs, 0, plan.durationMs);
  within('exam.longPollTimeoutMs', plan.longPollTimeoutMs, b.longPollTimeoutMs.min, b.longPollTimeoutMs.max);
  within('exam.burstEvery', plan.burstEvery, 0, b.burstEvery.max);
  plan.steps.forEach((step, i) => {
    const at = `exam.steps[${i}] (${step.kind})`;
    within(`${at}.atMs`, step.atMs, 0, plan.durationMs - 1);
    if (step.count !== undefined) within(`${at}.count`, step.count, 1, b.count.max);
    if (step.retryAfterSeconds !== undefined)
      within(`${at}.retryAfterSeconds`, step.retryAfterSeconds, 0, b.retryAfterSeconds.max);
    if (step.durationMs !== undefined) within(`${at}.durationMs`, step.durationMs, 1, plan.durationMs);
  });
  return plan;
}

/** Did you mean: the built-in plan nearest a name that is neither one nor a readable file. */
const nearestPlan = (name: string): string | undefined => nearest(name, ['standard', 'compact']);

/** `standard`, `compact`, or a file; checked whole (checkPlan). */
export async function planFor(name: string, durationMs?: number): Promise<ExamPlan> {
  return checkPlan(await readPlan(name, durationMs));
}

async function readPlan(name: string, durationMs?: number): Promise<ExamPlan> {
  if (name === 'standard') return standardPlan(durationMs);
  if (name === 'compact') return compactPlan(durationMs);
  let text: string;
  try {
    text = await readNamedFile(name);
  } catch (error) {
    const near = nearestPlan(name);
    throw new ExamPlanError(
      `Cannot read the exam scenario ${name}: ${(error as Error).message}${near ? ` (did you mean ${near}?)` : ' (--scenario takes standard, compact or a file)'}`,
    );
  }
  return parsePlan(text, name, durationMs);
}
