import { afterAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { checkedHistory } from '../conformance/history-helpers.js';
import { startLatencyProxy, type LatencyProxy } from '../helpers/latency-proxy.js';

// The stream-history checker finds nothing on the emulator over a slow, jittery link (20–150 ms
// on every chunk, each way) on a busy machine (six CPU-bound processes, test/load/hogs.ts), with
// page changes: no anomaly comes from timing alone.

let emulator: RunningEmulator | undefined;
let proxy: LatencyProxy | undefined;
afterAll(async () => {
  await proxy?.close();
  await emulator?.close();
});

it('finds nothing on the emulator behind a 20–150 ms latency proxy on a busy machine, across page changes', async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
  proxy = await startLatencyProxy(emulator.url, { seed: 7 });
  const history = await checkedHistory([proxy.url], emulator.apiKey, {
    durationMs: 8000,
    pageChanges: 2,
    drainMs: 15_000,
    pollTimeoutMs: 30_000,
  });
  expect(history.acknowledged).toBeGreaterThan(50);
  expect(history.found).toEqual({});
});
