import autocannon from 'autocannon';
import { devCredentials, publishHeaders, topicPath } from '../load/publisher.js';
import { ServerProcess } from '../servers/server-process.js';
import { median } from '../stats.js';
import { ratioOf, runOrder, type BenchContext, type Figure, type FigureResult, type Row } from './figure.js';

// Publish throughput: autocannon with 100 connections POSTing text to one topic, authenticated
// with the dev key, against the emulator and against B-fastify's bare route in the same run.

const connections = 100;
const warmUpSeconds = 2;
const runSeconds = 5;
const body = 'hello from the topics-emulator bench';

interface Sample {
  requestsPerSecond: number;
  errors: number;
  non2xx: number;
}

async function load(server: ServerProcess, seconds: number): Promise<Sample> {
  const result = await autocannon({
    url: `${server.url}${topicPath(devCredentials, 'bench-throughput')}`,
    connections,
    duration: seconds,
    method: 'POST',
    headers: publishHeaders(devCredentials),
    body,
  });
  return { requestsPerSecond: result.requests.average, errors: result.errors + result.timeouts, non2xx: result.non2xx };
}

export const throughput: Figure = {
  name: 'throughput',
  async run(context: BenchContext): Promise<FigureResult> {
    const baseline = await ServerProcess.start({ kind: 'b-fastify' });
    const ours = context.ours === undefined ? undefined : await ServerProcess.start(context.ours);
    const servers = runOrder(0, ours, baseline);
    const samples = new Map<ServerProcess, Sample[]>(servers.map((server) => [server, []]));
    try {
      for (const server of servers) {
        context.log(`throughput: warm-up ${server.kind}`);
        await load(server, warmUpSeconds);
      }
      for (let i = 0; i < context.options.runs; i++) {
        for (const server of runOrder(i, ours, baseline)) {
          const sample = await load(server, runSeconds);
          context.log(`throughput: ${server.kind} run ${i + 1}: ${sample.requestsPerSecond.toFixed(0)} req/s`);
          samples.get(server)?.push(sample);
        }
      }
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
    const rate = (server: ServerProcess | undefined): number | null =>
      server === undefined ? null : median((samples.get(server) ?? []).map((sample) => sample.requestsPerSecond));
    const failures = ours === undefined ? 0 : (samples.get(ours) ?? []).reduce((sum, sample) => sum + sample.errors + sample.non2xx, 0);
    const ratio = ratioOf(rate(ours), rate(baseline));
    const row: Row = {
      figure: `publish throughput (${connections} connections, authenticated)`,
      unit: 'req/s',
      ours: rate(ours),
      baseline: rate(baseline),
      baselineName: 'B-fastify POST',
      ratio,
      target: '≥ 0.8×',
      pass: ratio === null ? null : ratio >= 0.8 && failures === 0,
      ...(failures > 0 ? { note: `${failures} failed or non-2xx publishes` } : {}),
    };
    return {
      rows: [row],
      details: { connections, runSeconds, warmUpSeconds, samples: Object.fromEntries(servers.map((server) => [server.kind, samples.get(server)])) },
    };
  },
};
