// A failure must be reproducible: the shrunk scenario replays with --replay, and the printed
// curl commands send the same bytes (tokens as $TOKEN).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCurl } from '../../conformance/curl.js';
import { decodeElements } from '../../conformance/elements.js';
import { Sender } from '../../conformance/http.js';
import { runConformance } from '../../conformance/run.js';
import { Secrets } from '../../conformance/secrets.js';
import { Target } from '../../conformance/target.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { startBrokenServer } from '../../fixtures/broken/server.js';

const run = promisify(execFile);
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, logLevel: 'silent' });
});

afterAll(async () => {
  await emulator?.close();
});

describe('reproducing a failure', () => {
  it('shrinks a stream failure and replays exactly that scenario with its replay token', async () => {
    // A fault that depends only on the scenario (not on how many requests came before), so a
    // replay meets it again.
    const broken = await startBrokenServer({ upstream: emulator.url, violation: 'binary-truncated' });
    try {
      const options = {
        baseUrl: broken.url,
        token: emulator.apiKey,
        cache: 'default-cache',
        rules: ['stream.*'],
        seed: 11,
        runs: 10,
        shrinkTimeMs: 2000,
      };
      const first = await runConformance(options);
      const finding = first.rules.find((r) => r.id === 'stream.values-byte-exact')!.findings[0]!;
      const example = finding.counterexample!;
      expect(example.replay).toMatch(/^stream@11:[\d:]+$/);
      expect(example.steps.length).toBeGreaterThan(0);
      expect(finding.requests.some((r) => r.summary.startsWith('POST '))).toBe(true);

      const replayed = await runConformance({ ...options, replay: example.replay });
      const again = replayed.rules.find((r) => r.id === 'stream.values-byte-exact')!;
      expect(again.status).toBe('failed');
      expect(again.findings[0]!.counterexample!.steps).toEqual(example.steps);
      // Only the stream driver's rules (and the response checks) run in a replay.
      expect(replayed.rules.some((r) => r.id === 'auth.both-400')).toBe(false);
    } finally {
      await broken.close();
    }
  });

  it('prints curl commands that send the same bytes, any bytes', async () => {
    const secrets = new Secrets();
    secrets.add(emulator.apiKey, 'TOKEN');
    const sender = new Sender({
      baseUrl: emulator.url,
      maxRequests: 100,
      concurrency: 4,
      ratePerSecond: 0,
      maxRetryAfterMs: 1000,
      maxRetries: 1,
    });
    const target = new Target(sender, {
      cache: 'default-cache',
      missingCache: 'none',
      runId: 'curltest',
      token: emulator.apiKey,
      pollTimeoutMs: 5000,
    });
    const topic = target.newTopic('curl');
    const bytes = new Uint8Array(256).map((_, i) => i);
    const text = `quotes ' " \` $HOME %s \\n \n ✓ 🎉 \u0000`;
    const binary = await target.publish('test', topic, bytes, { contentType: 'application/octet-stream' });
    const textual = await target.publishText('test', topic, text, { auth: 'query' });
    expect([binary.status, textual.status]).toEqual([204, 204]);
    for (const exchange of [binary, textual]) {
      const command = toCurl(exchange, secrets);
      expect(command).not.toContain(emulator.apiKey);
      const { stdout } = await run('bash', ['-c', command], { env: { ...process.env, TOKEN: emulator.apiKey } });
      expect(stdout).toMatch(/^HTTP\/1\.1 204/);
    }
    // The topic now holds each message twice: once from the suite, once from curl.
    const answer = await target.subscribe('test', topic, { n: 1, page: 0 });
    const values = decodeElements(answer.json)!.map((e) => (e.kind === 'item' ? e.value : undefined));
    expect(values).toHaveLength(4);
    expect(values[0]).toEqual(values[2]);
    expect(values[1]).toEqual(values[3]);
    expect(values[1]).toEqual({ kind: 'text', text });
  });
});
