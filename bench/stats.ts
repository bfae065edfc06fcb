/** Percentile by nearest rank of an unsorted sample (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The spread of a figure's per-round ratios, ours over the baseline's in the same round. */
export interface RoundRatios {
  min: number;
  median: number;
  max: number;
}

/**
 * Ours over the baseline, round by round (round i of each: both ran in it, one after the other),
 * so a reader sees how far one round's verdict moves; undefined when the rounds do not pair up.
 */
export function roundRatios(ours: readonly number[], baseline: readonly number[]): RoundRatios | undefined {
  if (ours.length === 0 || ours.length !== baseline.length || baseline.some((value) => value <= 0)) return undefined;
  const ratios = ours.map((value, i) => value / baseline[i]!);
  return { min: Math.min(...ratios), median: median(ratios), max: Math.max(...ratios) };
}
