import { afterAll, describe, expect, it } from 'vitest';
import { probeFolder, repoRoot } from '../helpers/v8-probe.js';

// process.nextTick builds each tick object with one literal; full collections with no tick
// object alive make V8 forget that literal's maps, and its property stores go megamorphic
// (BENCHMARKS.md, tenth session). Run in a fresh process with V8's own view of the literal's
// feedback (%DebugPrint): without the emulator, full collections between ticks send the stores
// megamorphic; with an emulator started, they stay monomorphic.

const probes = probeFolder('tick-shape');
afterAll(() => probes.remove());

const script = (startEmulator: boolean) => `
import { startEmulator } from ${JSON.stringify(`${repoRoot}emulator/index.ts`)};
const emulator = ${startEmulator} ? await startEmulator({ port: 0, logLevel: 'silent' }) : undefined;
const noop = () => {};
for (let round = 0; round < 30; round++) {
  for (let i = 0; i < 2000; i++) process.nextTick(noop, i);
  await new Promise((resolve) => setImmediate(resolve));
  globalThis.gc();
}
new Function('f', '%DebugPrint(f)')(process.nextTick);
await emulator?.close();
`;

/** The states of the tick literal's property stores, as V8 prints nextTick's feedback. */
async function literalStores(startEmulator: boolean): Promise<string[]> {
  const stdout = await probes.run(`ticks-${startEmulator}`, script(startEmulator), [
    '--expose-gc',
    '--allow-natives-syntax',
  ]);
  return [...stdout.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]!);
}

describe("process.nextTick's tick object", () => {
  it('without the emulator, full collections between ticks send its literal megamorphic (the failure this guards against)', async () => {
    // What V8 forgets depends on when its collections run: on a busy machine one probe in a few
    // can keep the maps. The failure need only show itself, in any of three fresh processes.
    const runs: string[][] = [];
    for (let i = 0; i < 3 && !runs.some((states) => states.includes('MEGAMORPHIC')); i++)
      runs.push(await literalStores(false));
    expect(runs.flat()).toContain('MEGAMORPHIC');
  });

  it('once an emulator has started, its literal stays monomorphic through full collections', async () => {
    const states = await literalStores(true);
    expect(states.length).toBeGreaterThanOrEqual(4);
    expect(states.every((state) => state === 'MONOMORPHIC')).toBe(true);
  });
});
