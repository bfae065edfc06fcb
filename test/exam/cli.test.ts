import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clientRules } from '../../judge/catalogue.js';
import { runCli } from '../helpers/cli.js';

// `npx topics-emulator exam` as a user runs it (docs/judging.md's commands): the report on stdout,
// JUnit and JSON files, the exit code.

const dir = mkdtempSync(join(tmpdir(), 'topics-exam-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npx topics-emulator exam', () => {
  it('examines a command, prints the report, writes JUnit and JSON, and exits 0 when it passes', async () => {
    const junit = join(dir, 'exam.xml');
    const json = join(dir, 'exam.json');
    const run = runCli([
      'exam',
      '--scenario',
      'compact',
      '--report',
      `junit=${junit}`,
      '--report',
      `json=${json}`,
      '--',
      process.execPath,
      'fixtures/clients/correct-raw.mjs',
    ]);
    expect(await run.exited, run.stdout() + run.stderr()).toBe(0);
    expect(run.stdout()).toMatch(/RESULT\s+LEVEL\s+RULE/);
    expect(run.stdout()).toMatch(/pass\s+contract\s+resume\.next-cursor/);
    expect(run.stdout()).toContain('exam passed (exit 0)');
    // A test case per client rule, one per gauntlet step of the plan (five), and end to end.
    expect(readFileSync(junit, 'utf8')).toContain(
      `<testsuites name="topics-emulator exam" tests="${clientRules.length + 5 + 1}" failures="0"`,
    );
    const report = JSON.parse(readFileSync(json, 'utf8')) as { exitCode: number; requests: unknown[] };
    expect(report.exitCode).toBe(0);
    expect(report.requests.length).toBeGreaterThan(0);
  });

  it('takes --start-timeout and --messages: a command that sends nothing is stopped after it, exit 2', async () => {
    const started = performance.now();
    const run = runCli([
      'exam',
      '--start-timeout',
      '1s',
      '--messages',
      'text',
      '--',
      process.execPath,
      '-e',
      'setTimeout(() => {}, 60_000)',
    ]);
    expect(await run.exited).toBe(2);
    expect(run.stdout()).toMatch(/messages text\)/);
    expect(run.stdout()).toMatch(
      /could not judge: the command made no request to the emulator within 1 s \(--start-timeout\)/,
    );
    expect(performance.now() - started).toBeLessThan(15_000);
    const bad = runCli(['exam', '--messages', 'yaml', '--', 'true']);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toMatch(/--messages takes text, json or a template file/);
  });

  it('exits 2 without a command, and for a command that cannot start', async () => {
    const usage = runCli(['exam']);
    expect(await usage.exited).toBe(2);
    expect(usage.stderr()).toMatch(/name the client command after --/);
    const missing = runCli(['exam', '--scenario', 'compact', '--', 'no-such-command-for-the-exam']);
    expect(await missing.exited).toBe(2);
    expect(missing.stdout()).toMatch(/could not start/);
  });
});
