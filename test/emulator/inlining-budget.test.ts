import { afterAll, describe, expect, it } from 'vitest';
import { INLINING_BUDGET, inliningBudgetFor } from '../../emulator/inlining-budget.js';
import { probeFolder, repoRoot } from '../helpers/v8-probe.js';

// The CLI widens V8's inlining budget for the emulator's request path (emulator/inlining-budget.ts).
// Proven on V8 itself: a function calling eight callees of 161 bytes of bytecode each (1,288 in
// all, over the default budget of 920) has only some of them inlined by the optimising compiler
// (--trace-turbo-inlining), and all of them once the budget is widened at run time, as the CLI
// does. If a Node release stopped taking V8 flags after start-up, the second test would fail.

const probes = probeFolder('inlining-budget');
afterAll(() => probes.remove());

const script = (widen: boolean) => `
import { widenInliningBudget } from ${JSON.stringify(`${repoRoot}emulator/inlining-budget.ts`)};
if (${widen} && widenInliningBudget('memory') === null) throw new Error('the budget was not set');
const callee = (k) => new Function('a', 'b', \`
  let s = a ^ \${k};
  for (let i = 0; i < 3; i++) { s = (s * 31 + b + i) | 0; if (s & 1) s ^= 0x5bd1e995; else s = (s >>> 3) | 0; }
  s = (s + (a << 2) - (b >> 1)) | 0; s = s ^ (s >>> 7); s = (s * 13 + \${k}) | 0;
  if (s > 1000) s -= 999; else if (s < -1000) s += 999; else s = s * 2;
  return s;\`);
const [c0, c1, c2, c3, c4, c5, c6, c7] = Array.from({ length: 8 }, (_, k) => callee(k));
function caller(a, b) {
  return c0(a, b) + c1(a, b) + c2(a, b) + c3(a, b) + c4(a, b) + c5(a, b) + c6(a, b) + c7(a, b);
}
new Function('caller', \`
  %PrepareFunctionForOptimization(caller);
  for (let i = 0; i < 100; i++) caller(i, i + 1);
  %OptimizeFunctionOnNextCall(caller);
  caller(1, 2);\`)(caller);
`;

/** How many of the eight callees the optimising compiler inlined into their caller. */
async function inlinedCallees(widen: boolean): Promise<number> {
  const trace = await probes.run(`budget-${widen}`, script(widen), [
    '--allow-natives-syntax',
    '--trace-turbo-inlining',
  ]);
  const inlined = trace.split('\n').filter((line) => /^Inlining .* into .*caller/.test(line));
  return inlined.length;
}

describe("V8's inlining budget", () => {
  it('by default, the optimising compiler stops inlining a function once its callees add up to 920 bytes', async () => {
    expect(await inlinedCallees(false)).toBeLessThan(8);
  });

  it('widened as the CLI does it at run time, it inlines all eight', async () => {
    expect(await inlinedCallees(true)).toBe(8);
  });

  it("is the CLI's to set only with topics in memory and when Node was given none on its command line (with - or _)", () => {
    expect(inliningBudgetFor([], 'memory')).toBe(INLINING_BUDGET);
    expect(inliningBudgetFor(['--expose-gc', '--max-old-space-size=512'], 'memory')).toBe(INLINING_BUDGET);
    expect(inliningBudgetFor(['--max-inlined-bytecode-size=900'], 'memory')).toBe(INLINING_BUDGET);
    expect(inliningBudgetFor(['--max-inlined-bytecode-size-cumulative=920'], 'memory')).toBeNull();
    expect(
      inliningBudgetFor(['--enable-source-maps', '--max_inlined_bytecode_size_cumulative=2000'], 'memory'),
    ).toBeNull();
    expect(inliningBudgetFor([], 'redis://127.0.0.1:6379')).toBeNull();
    expect(inliningBudgetFor([], 'rediss://cache.example:6380')).toBeNull();
  });
});
