import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { STOP_GRACE_MS } from '../../emulator/exam/client-process.js';
import { verdictOf } from '../../emulator/exam/judging.js';
import { compactPlan, type ExamPlan } from '../../emulator/exam/plan.js';
import { renderJson, renderJunit, renderText } from '../../emulator/exam/report.js';
import { runExam, type ExamOptions, type ExamReport } from '../../emulator/exam/run.js';
import { clientRules } from '../../judge/catalogue.js';

// The exam judges right: the correct clients pass (the typed client even with --strict), each
// deliberately broken client in fixtures/clients/ fails on exactly its rule without --strict
// (but the advice-level one, which only --strict fails), and clients that cannot be judged
// (silent, gone early) are not passed. All run in waves, each against its own emulator, on the
// compact plan (about seven seconds; ten for those that must pass).

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/clients/${name}.mjs`, import.meta.url));
const clientModule = fileURLToPath(new URL('../../client/index.ts', import.meta.url));

/** Clients that must pass, and so get three more seconds after the last step (a client backing off through the outage may next try ~2 s later on a loaded machine). */
const passing = ['typed-client', 'correct-raw', 'slow-start', 'silent', 'misses-outage', 'sdk-client'];
/** Clients that must pass on the compact plan as it is. */
const passingAsIs = ['patient'];

/** Set EXAM_REPORTS_DIR to keep each exam's JSON report (what a failure rests on). */
async function exam(name: string, options: Partial<ExamOptions> = {}): Promise<ExamReport & { wallMs: number }> {
  const started = performance.now();
  const report = await runExam({
    command: process.execPath,
    args: name === 'typed-client' ? ['--import', 'tsx', fixture(name)] : [fixture(name)],
    plan: passing.includes(name) ? compactPlan(9800) : compactPlan(),
    strict: name === 'typed-client',
    env: { TOPICS_CLIENT_MODULE: clientModule },
    onError: () => {},
    ...options,
  });
  const dir = process.env.EXAM_REPORTS_DIR;
  if (dir) writeFileSync(`${dir}/${name}.json`, renderJson(report));
  return { ...report, wallMs: performance.now() - started };
}

const violated = (report: ExamReport) => report.rules.filter((r) => r.status === 'violated').map((r) => r.id);

const names = [
  ...passing,
  ...passingAsIs,
  'stops-early',
  'spin-last-number',
  'sdk-forgets-cursor',
  ...clientRules.map((r) => r.id.replace('.', '-')),
];
const reports = new Map<string, Promise<ExamReport & { wallMs: number }>>();
const WAVE = 6;

describe('the exam', () => {
  // Waves of exams at once (each waits on its client most of the time): more at once would
  // load a two-core machine enough to bend the clients' timing.
  beforeAll(() => {
    let wave: Promise<unknown> = Promise.resolve();
    let current: Promise<unknown>[] = [];
    names.forEach((name, i) => {
      const started = wave.then(() => exam(name));
      reports.set(name, started);
      current.push(started.catch(() => undefined));
      if ((i + 1) % WAVE === 0) {
        wave = Promise.all(current);
        current = [];
      }
    });
  });

  it('passes the typed client with --strict: every step handled, every message printed', async () => {
    const report = await reports.get('typed-client')!;
    expect(violated(report), renderText(report)).toEqual([]);
    expect(report.exitCode, renderText(report)).toBe(0);
    expect(report.endToEnd).toMatchObject({ exercised: true, passed: true });
    expect(report.steps.map((s) => s.outcome)).toEqual(Array(5).fill('handled'));
  });

  it('passes a patient correct client (two seconds after every error) on the compact plan as it is: its verdict does not depend on its patience', async () => {
    const report = await reports.get('patient')!;
    expect(violated(report), renderText(report)).toEqual([]);
    expect(report.exitCode, renderText(report)).toBe(0);
    expect(report.steps.map((s) => s.outcome)).toEqual(['handled', 'handled', 'handled', 'handled', 'handled']);
  });

  it('passes a correct client written with fetch, reading JSON messages, and reports in JUnit', async () => {
    const report = await reports.get('correct-raw')!;
    expect(violated(report), renderText(report)).toEqual([]);
    expect(report.exitCode, renderText(report)).toBe(0);
    expect(report.messages).toBe('json');
    expect(report.endToEnd.passed).toBe(true);
    // Every message counted once: never more printed than published.
    expect(report.endToEnd.printed).toBeLessThanOrEqual(report.endToEnd.published);
    expect(report.counts.throttled).toBeGreaterThan(0);
    expect(renderText(report)).toMatch(/\nexam passed \(exit 0\); the command was stopped at the end of the exam\n$/);
    const junit = renderJunit(report);
    // A case per rule, per step of the gauntlet, and the end-to-end check.
    expect(junit.match(/<testcase /g)).toHaveLength(clientRules.length + 5 + 1);
    expect(junit).toContain('failures="0"');
  });

  it('starts the plan at the first request: a client that starts slowly meets every step', async () => {
    const report = await reports.get('slow-start')!;
    expect(report.exitCode, renderText(report)).toBe(0);
    expect(report.steps.map((s) => s.outcome)).toEqual(Array(5).fill('handled'));
  });

  it("passes a client written with the provider's SDK over gRPC: every step met on its stream, every message printed", async () => {
    const report = await reports.get('sdk-client')!;
    expect(violated(report), renderText(report)).toEqual([]);
    expect(report.exitCode, renderText(report)).toBe(0);
    expect(report.requests.every((r) => r.protocol === 'grpc')).toBe(true);
    expect(report.endToEnd).toMatchObject({ exercised: true, passed: true });
    // The SDK gives up on an expired token (AUTHENTICATION_ERROR): reported, not failed.
    expect(report.steps.map((s) => s.outcome)).toEqual([...Array(4).fill('handled'), 'not recovered']);
  });

  it('fails an SDK client that subscribes afresh, without its cursor, and loses messages', async () => {
    const report = await reports.get('sdk-forgets-cursor')!;
    expect(report.exitCode, renderText(report)).toBe(1);
    // What its fresh subscriptions lose falls across the gauntlet's page change and outage, where
    // the resume rules cannot count it; the end-to-end check names each message missing.
    expect(report.endToEnd.passed, renderText(report)).toBe(false);
    expect(renderText(report)).toMatch(/end to end: FAIL: .* \d+ missing \(/);
  });

  it('plays an outage again for a client that was busy through it, so the client still meets it', async () => {
    const report = await reports.get('misses-outage')!;
    const outage = report.steps.find((s) => s.kind === 'outage')!;
    expect(outage.outcome, renderText(report)).toBe('handled');
    expect(report.exitCode, renderText(report)).toBe(0);
  });

  it('says why a client that received messages printed none (its output may be buffered)', async () => {
    const report = await reports.get('silent')!;
    expect(report.exitCode, renderText(report)).toBe(0);
    expect(report.endToEnd.exercised).toBe(false);
    expect(renderText(report)).toMatch(
      /printed none of the \d+ messages published; its requests received \d+ items: if it prints them, its output may be buffered/,
    );
    // One that printed lines, but not the messages' text, is told so instead (not buffering).
    expect(renderText({ ...report, linesPrinted: 3 })).toMatch(
      /it printed 3 line\(s\), none holding "exam message <n>"/,
    );
  });

  it('cannot judge a client that stopped before the gauntlet: exit 2, naming the steps it never met', async () => {
    const report = await reports.get('stops-early')!;
    expect(report.exitCode, renderText(report)).toBe(2);
    expect(report.verdict).toBe('could not judge');
    expect(report.reasons).toContain('the client never met the outage');
    expect(renderText(report)).toMatch(
      /\nexam could not judge \(exit 2\): the client never met the drop-waiting; .*the command exited with 0\n$/,
    );
  });

  it('judges a client that spins through thousands of polls, and ends on time', async () => {
    const report = await reports.get('spin-last-number')!;
    expect(violated(report)).toContain('resume.next-cursor');
    expect(report.exitCode).toBe(1);
    // Thousands on an idle machine; hundreds beside six CPU hogs (npm run test:load). A client
    // that does not spin makes a few dozen in this plan.
    expect(report.counts.polls).toBeGreaterThan(300);
    // The plan's duration, the command's stop, and a few seconds for the rest (judging included).
    expect(report.wallMs).toBeLessThan(compactPlan().durationMs + STOP_GRACE_MS + 5000);
    // One entry per client (a new token is a new client), with a count and three examples, not one per poll.
    const text = renderText(report);
    const entries = text.match(/resume\.next-cursor \(contract\), client /g) ?? [];
    expect(entries.length).toBeGreaterThanOrEqual(1);
    expect(entries.length).toBeLessThanOrEqual(report.clients.length);
    expect(text).toMatch(/\.\.\. and \d+ more like these/);
  });

  for (const rule of clientRules) {
    const name = rule.id.replace('.', '-');
    it(`fails fixtures/clients/${name}.mjs on ${rule.id} alone${rule.level === 'advice' ? ' with --strict' : ''}`, async () => {
      const report = await reports.get(name)!;
      expect(violated(report), renderText(report)).toEqual([rule.id]);
      const text = renderText(report);
      expect(text).toContain(`${rule.id} (${rule.level}`);
      expect(text).toMatch(/ {4}#\d+ /);
      if (rule.level === 'advice') {
        // Not without --strict, and the last line does not say "passed" above the violation.
        expect(report.exitCode, text).toBe(0);
        expect(text).toMatch(/\nexam: no contract or harm rule violated, 1 advice rule\(s\) not followed/);
        expect(verdictOf({ ...report, clients: report.clients.length, strict: true }).exitCode).toBe(1);
      } else expect(report.exitCode, text).toBe(1);
    });
  }
});

const noRequestPlan: ExamPlan = compactPlan();

describe('clients the exam cannot judge', () => {
  it('exits 2 when the command never sends a request (within --start-timeout), and stops it', async () => {
    const started = performance.now();
    const report = await runExam({
      command: process.execPath,
      args: ['-e', 'setTimeout(() => {}, 100_000)'],
      plan: noRequestPlan,
      startTimeoutMs: 1500,
    });
    expect(report.exitCode).toBe(2);
    expect(report.verdict).toBe('could not judge');
    expect(report.error).toMatch(/made no request to the emulator within 2 s/);
    expect(report.commandExit.stoppedByExam).toBe(true);
    expect(performance.now() - started).toBeLessThan(1500 + STOP_GRACE_MS + 3000);
  });

  it('exits 2 when the command exits 0 without a request', async () => {
    const report = await runExam({ command: process.execPath, args: ['-e', ''], plan: noRequestPlan });
    expect(report.exitCode).toBe(2);
    expect(report.error).toMatch(/could not judge: the command exited with code 0 before making any request/);
  });

  it('exits 2 when the command cannot start', async () => {
    const report = await runExam({ command: 'no-such-command-topics-exam', args: [], plan: noRequestPlan });
    expect(report.exitCode).toBe(2);
    expect(report.error).toMatch(/could not start/);
  });

  it('exits 2 when the command fails before its first request (a missing script), instead of passing it untested', async () => {
    const report = await runExam({
      command: process.execPath,
      args: ['fixtures/clients/no-such-client.mjs'],
      plan: noRequestPlan,
      onError: () => {},
    });
    expect(report.exitCode).toBe(2);
    expect(report.error).toMatch(/could not start: it exited with code 1 before making any request/);
  });

  it('stops the command’s whole process group, whatever it started', async () => {
    const lines: string[] = [];
    const report = await runExam({
      command: 'sh',
      args: ['-c', `sleep 300 & echo "sleeper $!"; exec "${process.execPath}" "${fixture('stops-early')}"`],
      plan: noRequestPlan,
      onOutput: (line) => lines.push(line),
    });
    expect(report.exitCode).toBe(2);
    const pid = Number(/^sleeper (\d+)$/m.exec(lines.join('\n'))?.[1]);
    expect(pid).toBeGreaterThan(0);
    // Gone, or a zombie waiting for its new parent to reap it.
    const alive = () => {
      try {
        process.kill(pid, 0);
      } catch {
        return false;
      }
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    };
    await vi.waitFor(() => expect(alive()).toBe(false), { timeout: 5000, interval: 20 });
  });
});
