import { notMeasured, ratioOf, withSettings, type BenchContext, type Figure, type FigureResult } from './figure.js';
import { cpuPerRequestUs, interleavedRounds, rateOf } from './interleaved.js';
import { journalRecordCost } from './journal-record.js';
import { publishRounds } from './throughput.js';

// What the request journal costs the publish hot path: the throughput figure's load against the
// emulator as shipped (journal on, 10,000 entries) and with `journalSize: 0` (the metrics still
// count, so the request path still gathers its facts; only the journal's listener and ring are
// gone), loaded in turn like the throughput figure (interleaved.ts: servers measured one after
// the other scattered by ±10%, as much as the target). Target: at most 10% fewer publishes. A
// second verdict explains the first: the journal's own part of a request timed alone
// (journal-record.ts: a publish's facts emitted with and without the journal listening, caches
// cold each time), set against a publish's server CPU with the journal off, saturated.

/** Rounds at least (fresh processes): one process scatters by ±5%. */
const minRounds = 6;

export const journal: Figure = {
  name: 'journal',
  async run(context: BenchContext): Promise<FigureResult> {
    const row = {
      figure: 'publish throughput, request journal on',
      unit: 'req/s',
      baselineName: 'journal off',
      target: '≥ 0.9×',
    };
    if (context.ours === undefined)
      return { rows: [notMeasured({ ...row, baseline: null }, 'the emulator is not built')], details: {} };
    const unprobed = { ...context.ours, probes: false };
    const rounds = Math.max(context.options.runs, minRounds);
    const [on, off] = await interleavedRounds(
      [
        { name: 'on', spec: unprobed },
        { name: 'off', spec: withSettings(unprobed, { journalSize: 0 })! },
      ],
      publishRounds(rounds),
      context.log,
      'journal',
    );
    const ratio = ratioOf(rateOf(on!), rateOf(off!));
    const failures = [...on!, ...off!].reduce((sum, round) => sum + round.failures, 0);
    const offCpuUs = cpuPerRequestUs(off!);
    const cost = await journalRecordCost(context.ours);
    context.log(
      `journal: a request event costs ${cost.withJournal.toFixed(0)} ns with the journal listening, ${cost.without.toFixed(0)} without (caches evicted each time, alike in both); over HTTP a publish costs ${offCpuUs.toFixed(1)} µs of server CPU, saturated, journal off`,
    );
    const share = cost.added / 1000 / offCpuUs;
    return {
      rows: [
        {
          ...row,
          ours: rateOf(on!),
          baseline: rateOf(off!),
          ratio,
          pass: ratio === null ? null : ratio >= 0.9 && failures === 0,
          ...(failures > 0 ? { note: `${failures} failed publishes or connections` } : {}),
        },
        {
          figure: 'server CPU per publish, saturated, journal on',
          unit: 'µs',
          ours: cpuPerRequestUs(on!),
          baseline: offCpuUs,
          baselineName: 'journal off',
          ratio: ratioOf(cpuPerRequestUs(on!), offCpuUs),
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
      details: { totals: { on, off }, rounds, interleaved: true, recordCost: cost },
    };
  },
};
