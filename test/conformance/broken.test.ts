// Proof that the suite catches bugs: against a proxy that breaks exactly one rule in front
// of the emulator, the suite reports that rule (a failure; a warning for observed-level
// choices), with requests that reproduce it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/run.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { startBrokenServer, violations, type Violation } from '../../fixtures/broken/server.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, logLevel: 'silent' });
});

afterAll(async () => {
  await emulator?.close();
});

const names = Object.keys(violations) as Violation[];

describe.concurrent('conformance suite against deliberately broken servers', () => {
  it('covers at least 15 distinct violations, each mapped to a rule of the catalogue', async () => {
    const { catalogue } = await import('../../conformance/rules/index.js');
    expect(names.length).toBeGreaterThanOrEqual(15);
    for (const name of names)
      expect(
        catalogue.map((r) => r.id),
        name,
      ).toContain(violations[name].rule);
  });

  for (const name of names) {
    const spec = violations[name];
    it(`${name} (${spec.does}) is reported by ${spec.rule}`, async () => {
      const broken = await startBrokenServer({ upstream: emulator.url, violation: name });
      try {
        const report = await runConformance({
          baseUrl: broken.url,
          token: emulator.apiKey,
          cache: 'default-cache',
          rules: [...spec.rules],
          seed: 1,
          runs: 3,
          shrinkTimeMs: 500,
        });
        const result = report.rules.find((r) => r.id === spec.rule)!;
        const observed = result.level === 'observed';
        expect(
          result.status,
          JSON.stringify(report.rules.filter((r) => r.status !== 'passed').map((r) => [r.id, r.status, r.detail])),
        ).toBe(observed ? 'warning' : 'failed');
        // Observed-level findings are warnings: they never fail the run on their own.
        expect(report.exitCode).toBe(observed ? 0 : 1);
        expect(result.findings[0]!.requests.length).toBeGreaterThan(0);
        expect(JSON.stringify(report)).not.toContain(emulator.apiKey);
      } finally {
        await broken.close();
      }
    });
  }
});
