import type { BenchChild } from '../ipc.js';
import type { ServerProcess } from '../servers/server-process.js';
import { median, percentile } from '../stats.js';
import { notMeasured, ratioOf, type BenchContext, type Figure, type FigureResult } from './figure.js';
import { sdkRounds } from './sdk-rounds.js';

// The gRPC door, driven by the provider's SDK (@gomomento/sdk, load/sdk-child.ts, its own
// process) side by side with B-grpc (baselines/b-grpc.ts: the same service on the same grpc-js
// and generated code, doing the least): publish throughput (target ≥ 0.8×), publish -> delivery
// to the SDK's own subscription, one message at a time (p50, p99), and the server's memory per
// parked Subscribe stream. Each round starts both servers afresh, in alternating order.

const SECONDS = 3;
const CONCURRENCY = 16;
const LATENCY_SAMPLES = 200;
const STREAMS = 2000;

interface Round {
  rate: number;
  failures: number;
  latencies: number[];
  bytesPerStream: number;
}

async function measure(
  sdk: BenchChild,
  endpoint: string,
  contender: string,
  server: ServerProcess,
  log: (m: string) => void,
): Promise<Round> {
  const published = await sdk.call<{ count: number; failures: number; seconds: number }>('publish', {
    endpoint,
    seconds: SECONDS,
    concurrency: CONCURRENCY,
    topic: 'throughput',
  });
  const latencies = await sdk.call<number[]>('latency', { endpoint, count: LATENCY_SAMPLES, topic: 'latency' });
  const before = await server.memory();
  await sdk.call('openStreams', { endpoint, count: STREAMS, topics: 100 });
  const parked = await server.memory();
  await sdk.call('closeStreams');
  const round: Round = {
    rate: published.count / published.seconds,
    failures: published.failures,
    latencies,
    bytesPerStream: (parked.heapUsed + parked.external - before.heapUsed - before.external) / STREAMS,
  };
  log(
    `grpc: ${contender} ${round.rate.toFixed(0)} publishes/s, delivery p50 ${percentile(latencies, 50).toFixed(2)} ms, ${round.bytesPerStream.toFixed(0)} B per parked stream`,
  );
  return round;
}

export const grpc: Figure = {
  name: 'grpc',
  async run(context: BenchContext): Promise<FigureResult> {
    const rows = {
      throughput: {
        figure: `gRPC publish throughput, the SDK, ${CONCURRENCY} in flight`,
        unit: 'req/s',
        baselineName: 'B-grpc',
        target: '≥ 0.8×',
      },
      p50: { figure: 'gRPC publish -> delivery to an SDK subscription, p50', unit: 'ms', baselineName: 'B-grpc' },
      p99: { figure: 'gRPC publish -> delivery to an SDK subscription, p99', unit: 'ms', baselineName: 'B-grpc' },
      memory: {
        figure: 'server memory per parked Subscribe stream (heap + external)',
        unit: 'B',
        baselineName: 'B-grpc',
      },
    };
    const results = await sdkRounds(context, (sdk, endpoint, contender, server) =>
      measure(sdk, endpoint, contender, server, context.log),
    );
    if (results === undefined)
      return {
        rows: Object.values(rows).map((row) =>
          notMeasured({ target: 'measured', ...row, baseline: null }, 'the emulator is not built'),
        ),
        details: {},
      };
    const pick = (name: string, of: (round: Round) => number) => median(results.get(name)!.map(of));
    const rate = (name: string) => pick(name, (r) => r.rate);
    const p = (name: string, q: number) => pick(name, (r) => percentile(r.latencies, q));
    const bytes = (name: string) => pick(name, (r) => r.bytesPerStream);
    const failures = [...results.values()].flat().reduce((n, r) => n + r.failures, 0);
    const throughputRatio = ratioOf(rate('ours'), rate('b-grpc'));
    const measured = (row: (typeof rows)['p50'], ours: number, baseline: number) => ({
      ...row,
      ours,
      baseline,
      ratio: ratioOf(ours, baseline),
      target: 'measured',
      pass: null,
    });
    return {
      rows: [
        {
          ...rows.throughput,
          ours: rate('ours'),
          baseline: rate('b-grpc'),
          ratio: throughputRatio,
          pass: throughputRatio === null ? null : throughputRatio >= 0.8 && failures === 0,
          ...(failures > 0 ? { note: `${failures} failed publishes` } : {}),
        },
        measured(rows.p50, p('ours', 50), p('b-grpc', 50)),
        measured(rows.p99, p('ours', 99), p('b-grpc', 99)),
        measured(rows.memory, bytes('ours'), bytes('b-grpc')),
      ],
      details: {
        rounds: Object.fromEntries(
          [...results].map(([name, rounds]) => [
            name,
            rounds.map(({ latencies, ...r }) => ({ ...r, samples: latencies.length })),
          ]),
        ),
        seconds: SECONDS,
        concurrency: CONCURRENCY,
        latencySamples: LATENCY_SAMPLES,
        streams: STREAMS,
      },
    };
  },
};
