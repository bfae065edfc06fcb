import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import {
  concurrencyFaults,
  startConcurrencyFaultServer,
  type ConcurrencyFault,
} from '../../fixtures/concurrent/server.js';
import { checkedHistory } from './history-helpers.js';

// `topics-conformance history` against the emulator (nothing found, with page changes too) and
// against the five fixtures that break the stream only under concurrent load (each caught with
// its anomaly). The workload is the CLI's, run in this process for 1.5 s of publishing.

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
});
afterAll(async () => {
  await emulator?.close();
});

describe('the stream-history checker', () => {
  it('finds nothing on the emulator, checked against its stronger promise (--strict)', async () => {
    const history = await checkedHistory([emulator.url], emulator.apiKey);
    expect(history.acknowledged).toBeGreaterThan(100);
    expect(history.found).toEqual({});
  });

  it('finds nothing on the emulator across page changes: each is announced by a discontinuity', async () => {
    const history = await checkedHistory([emulator.url], emulator.apiKey, { pageChanges: 2, durationMs: 2000 });
    const discontinuities = history.events.filter(
      (e) => e.type === 'read' && e.elements.some((x) => x.kind === 'discontinuity'),
    );
    expect(discontinuities.length).toBeGreaterThanOrEqual(8);
    expect(history.found).toEqual({});
  });

  describe.each(
    Object.entries(concurrencyFaults) as [ConcurrencyFault, (typeof concurrencyFaults)[ConcurrencyFault]][],
  )('a fixture that %s', (fault, { anomaly }) => {
    it(`is caught as ${anomaly}`, async () => {
      const server = await startConcurrencyFaultServer({ upstream: emulator.url, fault });
      try {
        const history = await checkedHistory([server.url], emulator.apiKey);
        expect(history.found[anomaly], JSON.stringify(history.found)).toBeGreaterThan(0);
      } finally {
        await server.close();
      }
    });
  });
});
