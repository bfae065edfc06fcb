import { join } from 'node:path';
import { nowMs } from '../clock.js';
import { emulatorModule, repoRoot } from '../paths.js';
import { notMeasured, ratioOf, type BenchContext, type Figure, type FigureResult, type Row } from './figure.js';

// How long a verdict takes, as `exam` users feel it:
// - judging 100,000 journalled requests (a client that spins, asking again and again for its
//   last number), against the same entries written to JSON and read back (a linear pass over
//   the same data, in the same run);
// - an exam of that spinning client on the compact plan, against the plan's own duration: the
//   exam must end within it plus a few seconds, whatever the client does.

const REQUESTS = 100_000;
/** "A few seconds". */
const JUDGE_LIMIT_MS = 5000;
/** What the exam may take beyond its plan: stopping the command (2 s grace) and judging. */
const EXAM_OVERRUN_LIMIT_MS = 5000;

type Entry = Record<string, unknown>;

/** A spinning client's polls: each asks for the number it already has and gets it again at once. */
function spinningPolls(count: number): Entry[] {
  const entries: Entry[] = [];
  let at = Date.UTC(2026, 0, 1);
  for (let id = 1; id <= count; id++) {
    at += 0.6;
    entries.push({
      id,
      protocol: 'http',
      plane: 'service',
      operation: 'subscribe',
      method: 'GET',
      path: '/topics/exam-cache/exam-topic',
      at,
      durationMs: 0.3,
      connectionId: 1,
      cache: 'exam-cache',
      topic: 'exam-topic',
      cursor: { sequenceNumber: 5, sequencePage: 7 },
      client: 'token:exam-client-1',
      credentialPlace: 'header',
      bearer: false,
      status: 200,
      code: null,
      retryAfterSeconds: null,
      decidedBy: null,
      items: [5],
      page: 7,
      discontinuity: null,
      dropped: false,
      clientGone: false,
      waitedMs: 0,
    });
  }
  return entries;
}

interface JudgeModule {
  judgeClients: (entries: readonly Entry[]) => unknown[];
}
interface ExamModule {
  runExam: (options: Record<string, unknown>) => Promise<{ exitCode: number; counts: { polls: number } }>;
}
interface PlanModule {
  compactPlan: () => { durationMs: number };
}

export const verdict: Figure = {
  name: 'verdict',
  async run(context: BenchContext): Promise<FigureResult> {
    const judgeRow = {
      figure: `judging ${REQUESTS.toLocaleString('en')} journalled requests (a spinning client)`,
      unit: 'ms',
      baselineName: 'the same entries to JSON and back',
      target: `≤ ${JUDGE_LIMIT_MS} ms`,
    };
    const examRow = {
      figure: 'exam of a spinning client, compact plan: wall time',
      unit: 'ms',
      baselineName: 'the plan’s duration',
      target: `≤ plan + ${EXAM_OVERRUN_LIMIT_MS} ms`,
    };
    if (context.ours === undefined)
      return {
        rows: [judgeRow, examRow].map((row) => notMeasured({ ...row, baseline: null }, 'the emulator is not built')),
        details: {},
      };
    const dist = join(emulatorModule, '..');
    const { judgeClients } = (await import(join(dist, '..', 'judge', 'judge.js'))) as JudgeModule;
    const { runExam } = (await import(join(dist, 'exam', 'run.js'))) as ExamModule;
    const { compactPlan } = (await import(join(dist, 'exam', 'plan.js'))) as PlanModule;

    const entries = spinningPolls(REQUESTS);
    const judged: number[] = [];
    const copied: number[] = [];
    for (let i = 0; i < context.options.runs; i++) {
      context.log(`verdict: judging ${REQUESTS} requests, round ${i + 1}`);
      let start = nowMs();
      judgeClients(entries);
      judged.push(nowMs() - start);
      start = nowMs();
      JSON.parse(JSON.stringify(entries));
      copied.push(nowMs() - start);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const judge = median(judged);
    const copy = median(copied);

    context.log('verdict: an exam of a spinning client (compact plan)');
    const plan = compactPlan();
    const start = nowMs();
    const report = await runExam({
      command: process.execPath,
      args: [join(repoRoot, 'fixtures', 'clients', 'spin-last-number.mjs')],
      plan,
      onError: () => {},
    });
    const examMs = nowMs() - start;
    const rows: Row[] = [
      {
        ...judgeRow,
        ours: Math.round(judge),
        baseline: Math.round(copy),
        ratio: ratioOf(judge, copy),
        pass: judge <= JUDGE_LIMIT_MS,
      },
      {
        ...examRow,
        ours: Math.round(examMs),
        baseline: plan.durationMs,
        ratio: ratioOf(examMs, plan.durationMs),
        pass: examMs <= plan.durationMs + EXAM_OVERRUN_LIMIT_MS,
        note: `${report.counts.polls} polls, exit ${report.exitCode}`,
      },
    ];
    return { rows, details: { judged, copied, examMs, polls: report.counts.polls } };
  },
};
