import { afterAll, describe, expect, it } from 'vitest';
import { probeFolder, repoRoot } from '../helpers/v8-probe.js';

// process.nextTick builds each tick object with one literal; full collections with no tick
// object alive make V8 forget that literal's maps, and its property stores go megamorphic
// (BENCHMARKS.md). Run in a fresh process with V8's own view of the literal's
// feedback (%DebugPrint): full collections between ticks send the stores megamorphic, in a
// process that starts an emulator too (startEmulator tunes nothing in a user's process); with the
// tick object kept as the CLI's server command keeps it, they stay monomorphic.

const probes = probeFolder('tick-shape');
afterAll(() => probes.remove());

const script = (keep: boolean) => `
import { startEmulator } from ${JSON.stringify(`${repoRoot}emulator/index.ts`)};
import { keepTickShape } from ${JSON.stringify(`${repoRoot}emulator/tick-shape.ts`)};
if (${keep}) keepTickShape();
const emulator = await startEmulator({ port: 0, logLevel: 'silent' });
const noop = () => {};
for (let round = 0; round < 30; round++) {
  for (let i = 0; i < 2000; i++) process.nextTick(noop, i);
  await new Promise((resolve) => setImmediate(resolve));
  globalThis.gc();
}
new Function('f', '%DebugPrint(f)')(process.nextTick);
await emulator.close();
`;

/** The states of the tick literal's property stores, as V8 prints nextTick's feedback. */
async function literalStores(keep: boolean): Promise<string[]> {
  const stdout = await probes.run(`ticks-${keep}`, script(keep), ['--expose-gc', '--allow-natives-syntax']);
  return [...stdout.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]!);
}

describe("process.nextTick's tick object", () => {
  it("in a user's process that starts an emulator, full collections between ticks send its literal megamorphic: startEmulator pins nothing", async () => {
    // What V8 forgets depends on when its collections run: on a busy machine one probe in a few
    // can keep the maps. The failure need only show itself, in any of three fresh processes.
    const runs: string[][] = [];
    for (let i = 0; i < 3 && !runs.some((states) => states.includes('MEGAMORPHIC')); i++)
      runs.push(await literalStores(false));
    expect(runs.flat()).toContain('MEGAMORPHIC');
  });

  it("kept as the CLI's server command keeps it, its literal stays monomorphic through full collections", async () => {
    const states = await literalStores(true);
    expect(states.length).toBeGreaterThanOrEqual(4);
    expect(states.every((state) => state === 'MONOMORPHIC')).toBe(true);
  });
});
