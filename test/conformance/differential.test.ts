// Differential mode: the same seeded run against two targets, compared rule by rule and
// request by request after normalising topic names, pages, tokens and error messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderDifferential, runDifferential } from '../../conformance/differential.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { startBrokenServer, type BrokenServer } from '../../fixtures/broken/server.js';

let a: RunningEmulator;
let b: RunningEmulator;
let broken: BrokenServer;

beforeAll(async () => {
  [a, b] = await Promise.all([
    startEmulator({ port: 0, logLevel: 'silent' }),
    startEmulator({ port: 0, logLevel: 'silent' }),
  ]);
  broken = await startBrokenServer({ upstream: b.url, violation: 'missing-token-403' });
});

afterAll(async () => {
  await broken?.close();
  await Promise.all([a?.close(), b?.close()]);
});

const target = (emulator: RunningEmulator, baseUrl = emulator.url) => ({
  baseUrl,
  token: emulator.apiKey,
  cache: 'default-cache',
});

describe('differential mode', () => {
  it('finds no difference between two emulators', async () => {
    const report = await runDifferential(
      { ...target(a), rules: ['auth.*', 'resume.*', 'subscribe.*'], seed: 4 },
      target(b),
    );
    expect(report.rules).toEqual([]);
    expect(report.requests).toEqual([]);
    expect(report.compared).toBeGreaterThan(20);
    expect(report.exitCode).toBe(0);
  });

  it('shows where a target answers differently, rule by rule and request by request', async () => {
    const report = await runDifferential({ ...target(a), rules: ['auth.*'], seed: 4 }, target(b, broken.url));
    expect(report.rules).toContainEqual({ id: 'auth.missing-401', a: 'passed', b: 'failed' });
    expect(report.requests).toContainEqual({
      rule: 'auth.missing-401',
      request: 'POST /topics/<cache>/<topic:auth-missing-401> body 22 bytes text/plain',
      a: '401',
      b: '403',
    });
    expect(report.exitCode).toBe(1);
    const text = renderDifferential(report);
    expect(text).toContain('auth.missing-401');
    expect(text).not.toContain(a.apiKey);
  });
});
