import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { DEV_API_KEY } from '../../../emulator/index.js';
import { baseUrlOf, runCli, type CliRun } from '../../helpers/cli.js';
import { mb, reportFigure } from '../figures.js';
import { startMeasuredEmulator, type MeasuredEmulator } from './child.js';
import { openLongPolls, type LongPoll } from './long-polls.js';

// Clean-up and shutdown with many long-polls, defined once for `npm test` (cleanup.test.ts)
// and the stress run (test/stress/cleanup.stress.test.ts) with their own counts.

export interface CleanupBudgets {
  label: string;
  aborted: number;
  atShutdown: number;
  /** The stress run also holds the exit to its bound (`npm test` has no timed assertions). */
  assertExitWithinMs?: number;
}

const topics = Array.from({ length: 20 }, (_, i) => `quiet-${i}`);

export function defineCleanupSuite(budgets: CleanupBudgets): void {
  let emulator: MeasuredEmulator | undefined;
  let cli: CliRun | undefined;
  let polls: LongPoll[] = [];
  afterEach(async () => {
    for (const p of polls) p.socket.destroy();
    polls = [];
    await emulator?.stop();
    emulator = undefined;
    if (cli && cli.child.exitCode === null) cli.child.kill('SIGKILL');
    await cli?.exited;
    cli = undefined;
  });

  describe(`clean-up and shutdown (${budgets.label})`, () => {
    it(`${budgets.aborted} long-polls abandoned by their clients leave no subscriber, timer, socket or memory behind`, async () => {
      emulator = await startMeasuredEmulator({ maxWaitingSubscribers: budgets.aborted + 1000 });
      const m = emulator;
      const waiting = async () => (await m.measure()).waiting;
      // A first round warms up what is allocated once (code, pools), so it does not count as a leak.
      polls = await openLongPolls(m.port, DEV_API_KEY, Math.min(200, budgets.aborted), topics, waiting);
      for (const p of polls) p.socket.destroy();
      await m.waitFor((x) => x.waiting === 0 && x.connections === 0, 'the warm-up long-polls to be forgotten');
      const before = await m.measure(true);

      polls = await openLongPolls(m.port, DEV_API_KEY, budgets.aborted, topics, waiting);
      const peak = await m.measure(true);
      // Half the clients vanish (their socket destroyed), half half-close and wait: both are gone.
      polls.forEach((p, i) => (i % 2 === 0 ? p.socket.destroy() : p.socket.end()));
      const drained = await m.waitFor(
        (x) => x.waiting === 0 && x.pendingTimers === before.pendingTimers && x.connections === 0,
        'every abandoned long-poll to be forgotten',
      );
      const after = await m.measure(true);
      const grew = peak.heapUsed - before.heapUsed;
      const kept = after.heapUsed - before.heapUsed;
      reportFigure(
        'aborted-long-polls',
        `${budgets.aborted} long-polls abandoned: waiting ${peak.waiting} -> ${drained.waiting}, clock timers ${peak.pendingTimers} -> ${after.pendingTimers}, ` +
          `connections ${peak.connections} -> ${after.connections}, heap ${mb(before.heapUsed)} -> ${mb(peak.heapUsed)} (waiting) -> ${mb(after.heapUsed)} (after GC)`,
        { aborted: budgets.aborted, before, peak, after },
      );
      expect(peak.waiting).toBe(budgets.aborted);
      expect(peak.pendingTimers).toBe(before.pendingTimers + budgets.aborted);
      expect(after).toMatchObject({ waiting: 0, pendingTimers: before.pendingTimers, connections: 0 });
      // Memory returns near its start: what stays is a small part of what the long-polls took.
      expect(kept).toBeLessThan(Math.max(1024 * 1024, grew / 4));
      // And the topics still serve.
      const topic = `${m.url}/topics/default-cache/${topics[0]}`;
      expect(
        (
          await fetch(topic, {
            method: 'POST',
            headers: { authorization: DEV_API_KEY, 'content-type': 'text/plain' },
            body: 'after',
          })
        ).status,
      ).toBe(204);
      expect((await fetch(`${topic}?sequence_number=1`, { headers: { authorization: DEV_API_KEY } })).status).toBe(200);
    });

    it(`SIGTERM with ${budgets.atShutdown} waiting long-polls: every one answered, exit code 0`, async () => {
      cli = runCli(['--port', '0', '--log-level', 'warn']);
      const url = await baseUrlOf(cli);
      const state = async () =>
        ((await (await fetch(`${url}/_emulator/state`)).json()) as { waitingSubscribers: unknown[] }).waitingSubscribers
          .length;
      polls = await openLongPolls(Number(new URL(url).port), DEV_API_KEY, budgets.atShutdown, topics, state);
      const signalled = performance.now();
      cli.child.kill('SIGTERM');
      const code = await cli.exited;
      const exitMs = performance.now() - signalled;
      const answers = await Promise.all(polls.map((p) => p.answer));
      const answered = answers.filter((a) => a?.status === 200 && a.body.toString() === '{"items":[]}').length;
      reportFigure(
        'sigterm',
        `${budgets.atShutdown} waiting long-polls at SIGTERM: ${answered} answered {"items":[]}, exit code ${code} after ${exitMs.toFixed(0)} ms`,
        {
          waiting: budgets.atShutdown,
          answered,
          exitCode: code,
          exitMs: Math.round(exitMs),
        },
      );
      expect(code).toBe(0);
      expect(answered).toBe(budgets.atShutdown);
      if (budgets.assertExitWithinMs !== undefined) expect(exitMs).toBeLessThan(budgets.assertExitWithinMs);
    });
  });
}
