// mulberry32: a tiny seeded PRNG. Fault probabilities and chaos draw from it so that the same
// seed and the same sequence of requests inject the same faults, run after run.

export type Random = () => number;

/** Uniform numbers in [0, 1), determined by the 32-bit seed. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A fresh seed, for rules that did not name one (shown back so the run can be replayed). */
export function randomSeed(): number {
  return Math.floor(Math.random() * 4294967296);
}
