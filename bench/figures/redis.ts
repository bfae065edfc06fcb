import { startRedis } from '../../test/redis/redis-server.js';
import { ServerProcess } from '../servers/server-process.js';
import { median } from '../stats.js';
import { measureLatency, messagesPerRun, warmUpMessages, type Pacing } from './latency.js';
import { load, warmUpSeconds } from './autocannon-load.js';
import {
  notMeasured,
  ratioOf,
  withSettings,
  type BenchContext,
  type Figure,
  type FigureResult,
  type Row,
} from './figure.js';

// The Redis store (`--store redis://...`) next to the in-memory store, in the same run, against a
// redis-server started here (ephemeral port, no persistence): publish throughput on one replica,
// and publish→delivery latency on one replica and across two (the subscriber waits on one, the
// publisher posts to the other). Needs `redis-server` (test/redis/setup.sh installs it).
// Latency is the store's, not the load generator's: one message at a time (the next is published
// once the previous was delivered and the subscriber's next poll is held), at most 200/s, the
// three set-ups alternating within each run.

const throughputSeconds = 4;
const pacing: Pacing = { intervalMs: 5, oneAtATime: true };

export const redis: Figure = {
  name: 'redis',
  async run(context: BenchContext): Promise<FigureResult> {
    const rows = (why: string): Row[] =>
      ['publish throughput, Redis store', 'publish→delivery p99 across two replicas, Redis store'].map((figure) =>
        notMeasured({ figure, unit: '', baseline: null, baselineName: 'in-memory', target: '' }, why),
      );
    if (context.ours === undefined) return { rows: rows('the emulator is not built'), details: {} };
    let server;
    try {
      server = await startRedis();
    } catch (error) {
      return { rows: rows(`no redis-server: ${(error as Error).message}`), details: {} };
    }
    const shared = { store: server.url, storePrefix: 'bench:' };
    const memory = await ServerProcess.start(context.ours);
    const a = await ServerProcess.start(withSettings(context.ours, shared)!);
    const b = await ServerProcess.start(withSettings(context.ours, shared)!);
    const details: Record<string, unknown> = {};
    try {
      const throughputs = new Map<string, number[]>();
      for (const [name, target] of [
        ['memory', memory],
        ['redis', a],
      ] as const) {
        await load(target, warmUpSeconds);
        const runs: number[] = [];
        for (let i = 0; i < context.options.runs; i++) {
          const sample = await load(target, throughputSeconds);
          if (sample.errors + sample.non2xx > 0)
            context.log(`redis: ${name} throughput had ${sample.errors + sample.non2xx} failures`);
          runs.push(sample.requestsPerSecond);
        }
        context.log(`redis: ${name} publishes/s ${runs.map((r) => r.toFixed(0)).join(', ')}`);
        throughputs.set(name, runs);
      }
      const latencies: Record<string, { p50: number; p99: number; lost: number }[]> = {};
      const setUps = [
        ['memory', memory, memory],
        ['redis, one replica', a, a],
        ['redis, across two replicas', b, a],
      ] as const;
      // Each set-up on its own topics (the two Redis set-ups share the store).
      for (const [j, [name, subscriber, publisher]] of setUps.entries()) {
        await measureLatency(subscriber, `redis-warm-up-${j}`, warmUpMessages, publisher, pacing);
        latencies[name] = [];
      }
      for (let i = 0; i < context.options.runs; i++) {
        for (const [j, [name, subscriber, publisher]] of setUps.entries()) {
          const sample = await measureLatency(subscriber, `redis-${j}-${i}`, messagesPerRun, publisher, pacing);
          context.log(
            `redis: ${name} run ${i + 1}: p50 ${sample.p50.toFixed(3)} ms, p99 ${sample.p99.toFixed(3)} ms, lost ${sample.lost}`,
          );
          latencies[name]!.push(sample);
        }
      }
      Object.assign(details, { throughputs: Object.fromEntries(throughputs), latencies, pacing, messagesPerRun });
      const ours = median(throughputs.get('redis')!);
      const inMemory = median(throughputs.get('memory')!);
      const pick = (name: string, key: 'p50' | 'p99') => median(latencies[name]!.map((s) => s[key]));
      const lost = (name: string) => latencies[name]!.reduce((sum, s) => sum + s.lost, 0);
      const latencyRow = (name: string, key: 'p50' | 'p99', target: string, pass: boolean | null): Row => ({
        figure: `publish→delivery ${key}, ${name}, one at a time, ≤ ${1000 / pacing.intervalMs}/s`,
        unit: 'ms',
        ours: pick(name, key),
        baseline: pick('memory', key),
        baselineName: 'in-memory',
        ratio: ratioOf(pick(name, key), pick('memory', key)),
        target,
        pass,
        ...(lost(name) > 0 ? { note: `${lost(name)} messages not delivered` } : {}),
      });
      const crossP99 = pick('redis, across two replicas', 'p99');
      return {
        rows: [
          {
            figure: 'publish throughput, Redis store, one replica',
            unit: 'req/s',
            ours,
            baseline: inMemory,
            baselineName: 'in-memory',
            ratio: ratioOf(ours, inMemory),
            target: '≥ 0.5×',
            pass: ours >= 0.5 * inMemory,
          },
          latencyRow('redis, one replica', 'p50', '', null),
          latencyRow('redis, one replica', 'p99', '', null),
          latencyRow('redis, across two replicas', 'p50', '', null),
          latencyRow(
            'redis, across two replicas',
            'p99',
            '< 5 ms',
            crossP99 < 5 && lost('redis, across two replicas') === 0,
          ),
        ],
        details,
      };
    } finally {
      await Promise.all([memory, a, b].map((s) => s.stop()));
      await server.stop();
    }
  },
};
