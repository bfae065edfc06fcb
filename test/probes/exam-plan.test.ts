import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

// Probe: exam plans with out-of-range values crashed mid-run with an uncaught EmulatorError,
// exit 1 (the same as a failed exam), and left the client running with parent PID 1
// (`{"kind":"outage","atMs":500,"durationMs":99999999999}`, `retryAfterSeconds: 1e12`). The
// whole plan is checked before anything starts: exit 2 with the reason, and no client started.

const dir = mkdtempSync(join(tmpdir(), 'exam-plan-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an exam plan out of range', () => {
  it.each([
    [
      'an outage lasting three years',
      { kind: 'outage', atMs: 500, durationMs: 99_999_999_999 },
      /durationMs must be a whole number from 1 to 60000/,
    ],
    [
      'a Retry-After of 1e12 seconds',
      { kind: 'throttle', atMs: 500, retryAfterSeconds: 1e12 },
      /retryAfterSeconds must be a whole number from 0 to 60/,
    ],
    ['a step after the end', { kind: 'page-change', atMs: 120_000 }, /atMs must be a whole number from 0 to 59999/],
    [
      'thirty thousand steps (it ran on for minutes and ignored SIGTERM)',
      Array.from({ length: 30_000 }, (_, i) => ({ kind: 'page-change', atMs: i % 50_000 })),
      /exam\.steps may hold at most 100 steps \(it has 30000\)/,
    ],
  ])('is refused before anything starts: %s', async (_what, step, reason) => {
    const plan = join(dir, 'plan.json');
    writeFileSync(plan, JSON.stringify({ exam: { durationMs: 60_000, steps: Array.isArray(step) ? step : [step] } }));
    const marker = join(dir, 'client-ran');
    const run = runCli([
      'exam',
      '--scenario',
      plan,
      '--',
      process.execPath,
      '-e',
      `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`,
    ]);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toMatch(reason);
    expect(() => rmSync(marker)).toThrow(/ENOENT/); // the client never ran
  });
});
