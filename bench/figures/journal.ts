import { median } from '../stats.js';
import { notMeasured, ratioOf, withSettings, type BenchContext, type Figure, type FigureResult } from './figure.js';
import { journalRecordCost } from './journal-record.js';
import { freshRounds, pacedRate, saturatedCpuUs, type Sample } from './autocannon-rounds.js';

// What the request journal costs the publish hot path: the throughput figure's load against the
// emulator as shipped (journal on, 10,000 entries) and with `journalSize: 0` (no listener on the
// event stream, so no record is built), in the same run. Target: at most 10% fewer publishes.
// Each round starts both afresh (throughput.ts says why), but over HTTP the rounds still scatter
// by ±10% on these machines, as much as the target, and their medians by ±5%: the throughput row
// is shown, without a verdict. The verdict is the journal's own part of a request timed alone
// (journal-record.ts: a publish's facts emitted with and without the journal listening, caches
// cold each time), set against a publish's server CPU over HTTP, saturated, journal off: the
// share of a publish's CPU, and so of throughput, that the journal takes.

export const journal: Figure = {
  name: 'journal',
  async run(context: BenchContext): Promise<FigureResult> {
    const row = {
      figure: 'publish throughput, request journal on',
      unit: 'req/s',
      baselineName: 'journal off',
      target: 'none (see the last row)',
    };
    if (context.ours === undefined)
      return { rows: [notMeasured({ ...row, baseline: null }, 'the emulator is not built')], details: {} };
    const [on, off] = await freshRounds(
      [
        { name: 'on', spec: context.ours },
        { name: 'off', spec: withSettings(context.ours, { journalSize: 0 })! },
      ],
      context.options.runs,
      context.log,
      'journal',
    );
    const rate = (samples: Sample[]) => median(samples.map((s) => s.requestsPerSecond));
    const cpu = (samples: Sample[]) => median(samples.map((s) => s.cpuPerPublishUs));
    const ratio = ratioOf(rate(on!), rate(off!));
    // Server CPU per publish while saturated: the share of a CPU used over the publishes served.
    const offCpuUs = median(off!.map(saturatedCpuUs));
    const cost = await journalRecordCost(context.ours);
    context.log(
      `journal: a request event costs ${cost.withJournal.toFixed(0)} ns with the journal listening, ${cost.without.toFixed(0)} without (caches evicted each time, alike in both); over HTTP a publish costs ${offCpuUs.toFixed(1)} µs of server CPU, saturated`,
    );
    const share = cost.added / 1000 / offCpuUs;
    return {
      rows: [
        {
          ...row,
          ours: rate(on!),
          baseline: rate(off!),
          ratio,
          pass: null,
          note: 'shown without a verdict: the rounds scatter as much as the target (see the in-process row)',
        },
        {
          figure: `server CPU per publish at ${pacedRate.toLocaleString('en')}/s, journal on`,
          unit: 'µs',
          ours: cpu(on!),
          baseline: cpu(off!),
          baselineName: 'journal off',
          ratio: ratioOf(cpu(on!), cpu(off!)),
          target: 'explains throughput',
          pass: null,
        },
        {
          figure:
            "the journal's own work per publish (timed alone, caches cold), against a publish's server CPU, saturated",
          unit: 'µs',
          ours: cost.added / 1000,
          baseline: offCpuUs,
          baselineName: 'CPU per publish, journal off',
          ratio: share,
          target: '≤ 0.1×',
          pass: share <= 0.1,
        },
      ],
      details: { samples: { on, off }, recordCost: cost, freshProcessPerRound: true },
    };
  },
};
