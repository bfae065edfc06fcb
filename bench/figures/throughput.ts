import { postRequest } from '../load/keep-alive-load.js';
import { devCredentials, publishHeaders, topicPath } from '../load/publisher.js';
import type { ServerSpec } from '../servers/server-spec.js';
import { roundRatios, type RoundRatios } from '../stats.js';
import {
  notMeasured,
  ratioOf,
  withSettings,
  type BenchContext,
  type Contender,
  type Figure,
  type FigureResult,
  type Row,
} from './figure.js';
import { cpuPerRequestUs, cpuShareOf, interleavedRounds, rateOf, type RoundTotals } from './interleaved.js';

// Publish throughput: 100 keep-alive connections POSTing text to one topic, authenticated with
// the dev key, against the emulator as the CLI runs it (V8's inlining budget set:
// emulator/inlining-budget.ts) and against B-fastify's bare route, loaded in turn
// (interleaved.ts says why), each round with fresh processes. The target is that emulator's.
// Beside them, three more servers explain it: the emulator as started in an app's own process
// (the budget left alone: what the budget adds); the emulator with no request recorded (journal
// and metrics off: what their per-request record costs); and a
// second B-fastify process loaded the same way, the run's noise floor: the same server's ratio
// to itself, which moves by ±0.04 from run to run, so a verdict within that of
// the target is not a verdict.

const connections = 100;
/** Rounds (fresh processes) at least: one process scatters by ±5%, so fewer would decide the verdict. */
const minRounds = 6;
const turns = 12;
const turnMs = 300;
const warmUpMs = 1500;
const body = 'hello from the topics-emulator bench';

/** B-fastify, loaded without probes: the figure's baseline (also the side-by-side tool's). */
export const bFastify: Contender = { name: 'b-fastify', spec: { kind: 'b-fastify', probes: false } };

/** The figure's load and turns, for `rounds` rounds (also the side-by-side tool's, profile/side-by-side-cli.ts). */
export const publishRounds = (rounds: number) => ({
  rounds,
  turns,
  turnMs,
  warmUpMs,
  connections,
  request: (url: string) =>
    postRequest(url, topicPath(devCredentials, 'bench-throughput'), publishHeaders(devCredentials), body),
});

/** The spread note of a ratio: how far one round's verdict moves. */
function spreadNote(spread: RoundRatios | undefined): string {
  return spread === undefined
    ? ''
    : `per-round ratios ${spread.min.toFixed(2)}–${spread.max.toFixed(2)}× (median ${spread.median.toFixed(2)}×)`;
}

function perRound(ours: readonly RoundTotals[], baseline: readonly RoundTotals[]): RoundRatios | undefined {
  return roundRatios(
    ours.map((round) => rateOf([round])),
    baseline.map((round) => rateOf([round])),
  );
}

/** A row that explains the verdict rather than passing one: a value beside B-fastify's. */
function beside(figure: string, unit: string, ours: number, baseline: number, target: string, note?: string): Row {
  return {
    figure,
    unit,
    ours,
    baseline,
    baselineName: 'B-fastify POST',
    ratio: ratioOf(ours, baseline),
    target,
    pass: null,
    ...(note === undefined ? {} : { note }),
  };
}

const failuresOf = (totals: readonly RoundTotals[]) => totals.reduce((sum, round) => sum + round.failures, 0);

export const throughput: Figure = {
  name: 'throughput',
  async run(context: BenchContext): Promise<FigureResult> {
    const rounds = Math.max(context.options.runs, minRounds);
    // Like with like: B-fastify's process gets the V8 tuning the CLI gives its own (the inlining
    // budget, the tick object kept), as `ours` does.
    const baselineTuned: Contender = { ...bFastify, spec: { ...bFastify.spec, inliningBudget: true } };
    const bFastifyTwin: Contender = { ...baselineTuned, name: 'b-fastify-twin' };
    const unprobed = (spec: ServerSpec): ServerSpec => ({ ...spec, probes: false });
    const row = {
      figure: `publish throughput (${connections} connections, authenticated)`,
      unit: 'req/s',
      baselineName: 'B-fastify POST',
      target: '≥ 0.8×',
    };
    if (context.ours === undefined)
      return { rows: [notMeasured({ ...row, baseline: null }, 'the emulator is not built')], details: {} };
    const unrecorded = withSettings(context.ours, { journalSize: 0, controlPlane: false })!;
    const [ours, inProcess, unrecordedTotals, baseline, twin] = await interleavedRounds(
      [
        { name: 'ours', spec: unprobed(context.ours) },
        { name: 'ours-in-process', spec: { ...unprobed(context.ours), inliningBudget: false } },
        { name: 'ours-unrecorded', spec: unprobed(unrecorded) },
        baselineTuned,
        bFastifyTwin,
      ],
      publishRounds(rounds),
      context.log,
      'throughput',
    );
    const ratio = ratioOf(rateOf(ours!), rateOf(baseline!));
    const failures = [ours, inProcess, unrecordedTotals, baseline, twin].reduce(
      (sum, totals) => sum + failuresOf(totals!),
      0,
    );
    // On a faster machine the load could become the limit; then the ratio would flatter ours.
    const baselineShare = cpuShareOf(baseline!);
    const loadBound =
      baselineShare < 0.85
        ? `; B-fastify used only ${(baselineShare * 100).toFixed(0)}% of a CPU: the load, not B-fastify, set its rate, so the ratio flatters ours`
        : '';
    const rows: Row[] = [
      {
        ...row,
        ours: rateOf(ours!),
        baseline: rateOf(baseline!),
        ratio,
        pass: ratio === null ? null : ratio >= 0.8 && failures === 0,
        note: `${spreadNote(perRound(ours!, baseline!))}${failures > 0 ? `; ${failures} failed publishes or connections` : ''}${loadBound}`,
      },
      beside(
        "publish throughput, started in an app's own process (V8 left alone; B-fastify tuned as the CLI)",
        'req/s',
        rateOf(inProcess!),
        rateOf(baseline!),
        "what the CLI's V8 tuning adds",
        spreadNote(perRound(inProcess!, baseline!)),
      ),
      beside(
        'publish throughput, no request recorded (--journal-size 0 --control off)',
        'req/s',
        rateOf(unrecordedTotals!),
        rateOf(baseline!),
        'what the record costs',
        spreadNote(perRound(unrecordedTotals!, baseline!)),
      ),
      beside(
        'publish throughput, B-fastify against itself (a second process)',
        'req/s',
        rateOf(twin!),
        rateOf(baseline!),
        'the noise floor: ~1.00×',
        spreadNote(perRound(twin!, baseline!)),
      ),
      beside(
        'server CPU per publish, saturated',
        'µs',
        cpuPerRequestUs(ours!),
        cpuPerRequestUs(baseline!),
        'explains throughput',
      ),
    ];
    return {
      rows,
      details: {
        connections,
        rounds,
        turns,
        turnMs,
        warmUpMs,
        interleaved: true,
        totals: { ours, inProcess, unrecorded: unrecordedTotals, baseline, baselineTwin: twin },
      },
    };
  },
};
