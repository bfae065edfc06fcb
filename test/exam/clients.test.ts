import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientRules } from '../../emulator/judge/catalogue.js';
import { compactPlan } from '../../emulator/exam/plan.js';
import { renderJson, renderJunit, renderText } from '../../emulator/exam/report.js';
import { runExam, type ExamReport } from '../../emulator/exam/run.js';

// The exam judges right: the correct clients pass (the typed client even with --strict), and
// each deliberately broken client in fixtures/clients/ fails on exactly its rule. All run at
// in two waves, each against its own emulator, on the compact plan (about seven seconds; ten for
// the two that must pass).

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/clients/${name}.mjs`, import.meta.url));
const clientModule = fileURLToPath(new URL('../../client/index.ts', import.meta.url));

const passing = ['typed-client', 'correct-raw'];

/** Set EXAM_REPORTS_DIR to keep each exam's JSON report (what a failure rests on). */
async function exam(name: string, strict = true): Promise<ExamReport> {
  const report = await runExam({
    command: process.execPath,
    args: name === 'typed-client' ? ['--import', 'tsx', fixture(name)] : [fixture(name)],
    // The clients that must pass get three more seconds after the last step: a client backing off
    // (doubling, with jitter) through the 1 s outage may next try ~2 s later on a loaded machine.
    plan: passing.includes(name) ? compactPlan(9800) : compactPlan(),
    strict,
    env: { TOPICS_CLIENT_MODULE: clientModule },
    onError: () => {},
  });
  const dir = process.env.EXAM_REPORTS_DIR;
  if (dir) writeFileSync(`${dir}/${name}.json`, renderJson(report));
  return report;
}

const violated = (report: ExamReport) => report.rules.filter((r) => r.status === 'violated').map((r) => r.id);

const names = ['typed-client', 'correct-raw', ...clientRules.map((r) => r.id.replace('.', '-'))];
const reports = new Map<string, Promise<ExamReport>>();
const WAVE = 7;

describe('the exam', () => {
  // Two waves of exams at once (each waits on its client most of the time): more at once
  // would load a two-core machine enough to bend the clients' timing.
  beforeAll(() => {
    let firstWave: Promise<unknown> = Promise.resolve();
    names.forEach((name, i) => {
      reports.set(
        name,
        (i < WAVE ? Promise.resolve() : firstWave).then(() => exam(name)),
      );
      if (i === WAVE - 1) firstWave = Promise.allSettled([...reports.values()]);
    });
  });

  it('passes the typed client with --strict: every step handled, every message printed', async () => {
    const report = await reports.get('typed-client')!;
    expect(violated(report), renderText(report)).toEqual([]);
    expect(report.exitCode, renderText(report)).toBe(0);
    expect(report.endToEnd).toMatchObject({ exercised: true, passed: true });
    expect(report.steps.map((s) => s.outcome)).toEqual(Array(5).fill('handled'));
  });

  it('passes a correct client written with fetch, and reports in JUnit', async () => {
    const report = await reports.get('correct-raw')!;
    expect(violated(report), renderText(report)).toEqual([]);
    expect(report.exitCode, renderText(report)).toBe(0);
    expect(report.endToEnd.passed).toBe(true);
    expect(report.counts.throttled).toBeGreaterThan(0);
    const junit = renderJunit(report);
    expect(junit.match(/<testcase /g)).toHaveLength(clientRules.length + 1);
    expect(junit).toContain('failures="0"');
  });

  for (const rule of clientRules) {
    const name = rule.id.replace('.', '-');
    it(`fails fixtures/clients/${name}.mjs on ${rule.id} alone`, async () => {
      const report = await reports.get(name)!;
      expect(violated(report), renderText(report)).toEqual([rule.id]);
      expect(report.exitCode).toBe(1);
      const text = renderText(report);
      expect(text).toContain(`${rule.id} (${rule.level}):`);
      expect(text).toMatch(/ {4}#\d+ /);
    });
  }
});

it('exits 2 when the command cannot start', async () => {
  const report = await runExam({ command: 'no-such-command-topics-exam', args: [], plan: compactPlan() });
  expect(report.exitCode).toBe(2);
  expect(report.error).toMatch(/could not start/);
});

it('exits 2 when the command fails before its first request (a missing script), instead of passing it untested', async () => {
  const report = await runExam({
    command: process.execPath,
    args: ['fixtures/clients/no-such-client.mjs'],
    plan: compactPlan(),
  });
  expect(report.exitCode).toBe(2);
  expect(report.error).toMatch(/could not start: it exited with code 1 before making any request/);
});
