import { existsSync } from 'node:fs';
import type { SwarmProcess } from '../load/swarm-process.js';
import type { ServerSpec } from '../servers/server-spec.js';

/** One line of the results table. Numbers are in `unit`; null means not measured. */
export interface Row {
  figure: string;
  unit: string;
  ours: number | null;
  baseline: number | null;
  /** What the baseline column holds, e.g. "B-fastify". */
  baselineName: string;
  ratio: number | null;
  target: string;
  /** null: no verdict (not measured, or documented only). */
  pass: boolean | null;
  note?: string;
}

export interface FigureResult {
  rows: Row[];
  /** Raw samples and settings, for the JSON report. */
  details: Record<string, unknown>;
}

export interface BenchOptions {
  long: boolean;
  /** Measured runs per server per figure (after warm-up); the median is reported. */
  runs: number;
}

export interface BenchContext {
  options: BenchOptions;
  swarm: SwarmProcess;
  /** The emulator's spec, or undefined when dist/emulator is not built (baselines only). */
  ours: ServerSpec | undefined;
  emulatorCli: string | undefined;
  log: (message: string) => void;
}

/** One server of a comparison: a name for the log, and the spec each round starts afresh. */
export interface Contender {
  name: string;
  spec: ServerSpec;
}

export interface Figure {
  name: string;
  run(context: BenchContext): Promise<FigureResult>;
}

export function oursSpec(emulatorModule: string, settings: Record<string, unknown> = {}): ServerSpec | undefined {
  return existsSync(emulatorModule) ? { kind: 'ours', emulatorModule, settings } : undefined;
}

/** `ours` with extra startEmulator settings for one figure. */
export function withSettings(spec: ServerSpec | undefined, settings: Record<string, unknown>): ServerSpec | undefined {
  return spec === undefined ? undefined : { ...spec, settings: { ...spec.settings, ...settings } };
}

/**
 * Run order for run i: alternate which side goes first, so drift on a shared machine splits
 * evenly. Without ours (not built yet) only the baseline runs.
 */
export function runOrder<T>(i: number, ours: T | undefined, baseline: T): T[] {
  return alternating(i, ours === undefined ? [baseline] : [ours, baseline]);
}

/** Round `i`'s order: as given in even rounds, reversed in odd ones, so no contender always goes first. */
export function alternating<T>(i: number, contenders: readonly T[]): T[] {
  return i % 2 === 0 ? [...contenders] : [...contenders].reverse();
}

export function ratioOf(ours: number | null, baseline: number | null): number | null {
  return ours === null || baseline === null || baseline === 0 ? null : ours / baseline;
}

/** A row for a figure ours could not be measured on (the emulator is not built). */
export function notMeasured(row: Omit<Row, 'ours' | 'ratio' | 'pass'>, why: string): Row {
  return { ...row, ours: null, ratio: null, pass: null, note: why };
}
