// mulberry32: a tiny seeded PRNG. Fault probabilities and chaos draw from it so that the same
// seed and the same sequence of requests inject the same faults, run after run.

/** Uniform numbers in [0, 1); `calls` counts the numbers drawn (a snapshot saves it). */
export interface Random {
  (): number;
  readonly calls: number;
}

const STEP = 0x6d2b79f5;

/**
 * Uniform numbers in [0, 1), determined by the 32-bit seed; `calls` numbers already drawn are
 * skipped (the state moves by a constant step per number, so skipping costs nothing).
 */
export function seededRandom(seed: number, calls = 0): Random {
  let state = (seed + Math.imul(calls, STEP)) >>> 0;
  let drawn = calls;
  const random = () => {
    drawn += 1;
    state = (state + STEP) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Object.defineProperty(random, 'calls', { get: () => drawn }) as Random;
}

/** A fresh seed, for rules that did not name one (shown back so the run can be replayed). */
export function randomSeed(): number {
  return Math.floor(Math.random() * 4294967296);
}
