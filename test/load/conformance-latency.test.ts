import { afterAll, expect, it } from 'vitest';
import { runConformance } from '../../conformance/run.js';
import { startEmulator, type EmulatorSettings, type RunningEmulator } from '../../emulator/index.js';
import { startLatencyProxy, type LatencyProxy } from '../helpers/latency-proxy.js';

// The conformance suite passes a correct endpoint over a slow, jittery link (20–150 ms on every
// chunk, each way) on a busy machine (six CPU-bound processes beside it, test/load/hogs.ts),
// several runs in a row: every timing it relies on is derived from what it measured of the
// endpoint, and no check depends on a request having arrived before the next is sent. The
// endpoints are the emulator as it starts (a first request waits for the next message, as on
// the live service) and with a short long-poll timeout and small batches.

const endpoints: { name: string; settings: Partial<EmulatorSettings>; seed: number }[] = [
  { name: 'defaults', settings: {}, seed: 1 },
  {
    name: 'a 1.5 s long-poll timeout, two messages per answer',
    settings: { longPollTimeoutMs: 1500, maxBatch: 2 },
    seed: 2,
  },
  { name: 'defaults, another seed', settings: {}, seed: 3 },
];

let emulator: RunningEmulator | undefined;
let proxy: LatencyProxy | undefined;
afterAll(async () => {
  await proxy?.close();
  await emulator?.close();
});

for (const { name, settings, seed } of endpoints) {
  it(`passes the emulator (${name}) behind a 20–150 ms latency proxy on a busy machine`, async () => {
    await proxy?.close();
    await emulator?.close();
    emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', ...settings });
    proxy = await startLatencyProxy(emulator.url, { seed });
    const restricted = await emulator.issueToken({
      permissions: [{ role: 'subscribeonly', cache: 'default-cache', topic: '*' }],
      ttlSeconds: 3600,
    });
    const report = await runConformance({
      baseUrl: proxy.url,
      token: emulator.apiKey,
      cache: 'default-cache',
      restrictedToken: restricted.token,
      seed,
      runs: 3,
      allowGlobalReset: true,
      timeBudgetMs: 240_000,
    });
    const notPassing = report.rules.filter((r) => r.status === 'failed' || r.status === 'warning');
    expect(
      notPassing.map((r) => `${r.id}: ${r.findings[0]?.message}`),
      `seed ${report.seed}`,
    ).toEqual([]);
    expect(report.rules.filter((r) => r.status === 'skipped').map((r) => `${r.id}: ${r.detail}`)).toEqual([]);
    expect(report.exitCode).toBe(0);
  });
}
