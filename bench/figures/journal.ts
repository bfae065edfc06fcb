import { ServerProcess } from '../servers/server-process.js';
import { median } from '../stats.js';
import {
  notMeasured,
  ratioOf,
  runOrder,
  withSettings,
  type BenchContext,
  type Figure,
  type FigureResult,
} from './figure.js';
import { journalRecordNs } from './journal-record.js';
import { load, measure, pacedRate, warmUpSeconds, type Sample } from './throughput.js';

// What the request journal costs the publish hot path: the throughput figure's load against the
// emulator as shipped (journal on, 10,000 entries) and with `journalSize: 0` (no listener on the
// event stream, so no record is built), in the same run. Target: at most 10% fewer publishes.
// The two servers' figures scatter by about ±10% between rounds on a shared 2-CPU machine, as
// much as the target; so the journal's own work is also timed in this process (journal-record.ts)
// and set against a publish's server CPU at saturation with the journal off, from the same run.

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
    const on = await ServerProcess.start(context.ours);
    const off = await ServerProcess.start(withSettings(context.ours, { journalSize: 0 })!);
    const samples = new Map<ServerProcess, Sample[]>([
      [on, []],
      [off, []],
    ]);
    try {
      for (const server of [on, off]) await load(server, warmUpSeconds);
      for (let i = 0; i < context.options.runs; i++) {
        for (const server of runOrder(i, on, off)) {
          const sample = await measure(server);
          context.log(
            `journal: ${server === on ? 'on' : 'off'} run ${i + 1}: ${sample.requestsPerSecond.toFixed(0)} req/s; ${sample.cpuPerPublishUs.toFixed(0)} µs CPU per publish at ${pacedRate}/s`,
          );
          samples.get(server)!.push(sample);
        }
      }
    } finally {
      await Promise.all([on.stop(), off.stop()]);
    }
    const rate = (server: ServerProcess) => median(samples.get(server)!.map((s) => s.requestsPerSecond));
    const cpu = (server: ServerProcess) => median(samples.get(server)!.map((s) => s.cpuPerPublishUs));
    const ratio = ratioOf(rate(on), rate(off));
    // Server CPU per publish while saturated: the share of a CPU used over the publishes served.
    const saturatedCpuUs = median(samples.get(off)!.map((s) => (s.serverCpu * 1e6) / s.requestsPerSecond));
    const record = await journalRecordNs(context.ours);
    context.log(
      `journal: in-process ${record.withJournal.toFixed(0)} ns per request event with the journal, ${record.without.toFixed(0)} without; a publish costs ${saturatedCpuUs.toFixed(1)} µs of server CPU at saturation`,
    );
    const share = record.added / 1000 / saturatedCpuUs;
    return {
      rows: [
        { ...row, ours: rate(on), baseline: rate(off), ratio, pass: ratio === null ? null : ratio >= 0.9 },
        {
          figure: `server CPU per publish at ${pacedRate.toLocaleString('en')}/s, journal on`,
          unit: 'µs',
          ours: cpu(on),
          baseline: cpu(off),
          baselineName: 'journal off',
          ratio: ratioOf(cpu(on), cpu(off)),
          target: 'explains throughput',
          pass: null,
        },
        {
          figure: "the journal's own work per publish (in-process), against a publish's server CPU at saturation",
          unit: 'µs',
          ours: record.added / 1000,
          baseline: saturatedCpuUs,
          baselineName: 'CPU per publish, journal off',
          ratio: share,
          target: '≤ 0.1×',
          pass: share <= 0.1,
        },
      ],
      details: { samples: { on: samples.get(on), off: samples.get(off) }, record },
    };
  },
};
