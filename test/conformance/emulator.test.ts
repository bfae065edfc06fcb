// The suite against the emulator: every rule that runs passes, documented and observed
// alike (the observed rules describe the emulator's own choices). A short run: a few
// scenarios per property; `npm run conformance` runs the full default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/run.js';
import { issueToken, signingKeyBytes } from '../../emulator/auth/tokens.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, logLevel: 'silent' });
});

afterAll(async () => {
  await emulator?.close();
});

/** A token that expired an hour ago, signed with the emulator's key. */
async function expiredToken(): Promise<string> {
  const request = { permissions: [{ role: 'publishsubscribe' as const, cache: '*', topic: '*' }], ttlSeconds: 60 };
  const { token } = await issueToken(
    request,
    signingKeyBytes(emulator.settings.signingKey),
    Date.now() - 3_600_000,
    new URL(emulator.url).host,
  );
  return token;
}

describe('conformance suite against the emulator', () => {
  it('passes every rule that runs, and says why any rule was skipped', async () => {
    const restricted = await emulator.issueToken({
      permissions: [{ role: 'subscribeonly', cache: 'default-cache', topic: '*' }],
      ttlSeconds: 3600,
    });
    const report = await runConformance({
      baseUrl: emulator.url,
      token: emulator.apiKey,
      cache: 'default-cache',
      restrictedToken: restricted.token,
      expiredToken: await expiredToken(),
      seed: 20251122,
      runs: 3,
      allowGlobalReset: true,
    });
    const notPassing = report.rules.filter((r) => r.status === 'failed' || r.status === 'warning');
    expect(
      notPassing.map((r) => `${r.id}: ${r.findings[0]?.message}`),
      `seed ${report.seed}`,
    ).toEqual([]);
    expect(report.exitCode).toBe(0);
    for (const rule of report.rules.filter((r) => r.status === 'skipped')) expect(rule.detail, rule.id).toMatch(/\S/);
    // Every documented rule that needs nothing but the endpoint and tokens ran and passed.
    const documented = report.rules.filter((r) => r.level === 'documented');
    expect(documented.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.detail}`)).toEqual([]);
    expect(report.requests).toBeGreaterThan(100);
    expect(report.control.available).toBe(true);
    // The observations describe the emulator's defaults (x-emulator-first-request, -discontinuity, -content-types).
    const observed = Object.fromEntries(
      report.rules.filter((r) => r.status === 'observed').map((r) => [r.id, r.detail]),
    );
    expect(observed).toEqual({
      'observe.first-request': 'waits for the next message published, and answers it',
      'observe.ahead-of-stream': expect.stringMatching(/waits; after a publish: discontinuity to \d+@\d+, item \d+$/),
      'observe.discontinuity-alone': expect.stringMatching(/^not seen in \d+ answer\(s\)$/),
      'observe.content-types': `accepts ${[
        'text/plain;charset=UTF-8 as text',
        'application/json; charset=utf-8 as text',
        'application/cloudevents+json as text',
        'text/markdown as text',
        'octet-stream as binary',
        'image/png as binary',
      ].join(', ')}`,
    });
    expect(report.summary.observed).toBe(4);
  });

  // What the contract leaves open (where a first request starts, retention depth, batch
  // size, the long-poll timeout) must never fail a documented rule.
  it.concurrent.each([
    ['first requests that answer the latest message at once', { firstSubscribe: 'latest' as const }],
    ['discontinuities answered alone, at once', { discontinuity: 'alone' as const }],
    ['unlisted content types refused', { contentTypes: 'strict' as const }],
    ['first requests that start at the oldest message', { firstSubscribe: 'oldest' as const }],
    ['a retention of 3 messages and answers of 1 item', { retention: 3, maxBatch: 1 }],
    ['a 300 ms long-poll timeout', { longPollTimeoutMs: 300 }],
  ])('passes every documented rule with %s', async (_name, settings) => {
    const variant = await startEmulator({ port: 0, logLevel: 'silent', ...settings });
    try {
      const report = await runConformance({
        baseUrl: variant.url,
        token: variant.apiKey,
        cache: 'default-cache',
        rules: ['documented'],
        seed: 5,
        runs: 2,
      });
      const failed = report.rules.filter((r) => r.status !== 'passed');
      expect(
        failed.map((r) => `${r.id}: ${r.findings[0]?.message ?? r.detail}`),
        `seed ${report.seed}`,
      ).toEqual([]);
    } finally {
      await variant.close();
    }
  });

  it('refuses to start against a token the endpoint refuses, or a cache it does not have', async () => {
    const options = { baseUrl: emulator.url, token: emulator.apiKey, cache: 'default-cache' };
    await expect(runConformance({ ...options, token: 'not-a-key' })).rejects.toThrow(
      /the token was refused: a publish to cache default-cache answered 401/,
    );
    await expect(runConformance({ ...options, cache: 'no-such-cache' })).rejects.toThrow(
      /cache no-such-cache does not exist/,
    );
  });

  it('only creates topics named after its run, in the cache it was given', async () => {
    const before = new Set(emulator.context.store.snapshot().map((t) => `${t.cache}/${t.topic}`));
    const report = await runConformance({
      baseUrl: emulator.url,
      token: emulator.apiKey,
      cache: 'default-cache',
      rules: ['stream.*', 'auth.*'],
      seed: 7,
      runs: 2,
    });
    const created = emulator.context.store.snapshot().filter((t) => !before.has(`${t.cache}/${t.topic}`));
    expect(created.length).toBeGreaterThan(3);
    for (const topic of created) {
      expect(topic.cache).toBe('default-cache');
      expect(topic.topic).toMatch(new RegExp(`^conformance-${report.runId}-\\d+-`));
    }
  });
});
