import autocannon from 'autocannon';
import { devCredentials, publishHeaders, topicPath } from '../load/publisher.js';
import { pinCpus, type CpuPinning } from '../cpu-pinning.js';
import { ServerProcess } from '../servers/server-process.js';
import { nowMs } from '../clock.js';
import { alternating, type Contender } from './figure.js';

// Rounds of autocannon load (100 connections POSTing text to one topic, authenticated with the
// dev key), one server at a time: the journal figure's on/off comparison and the Redis figure's
// throughput. Each round starts every server afresh (alternating which goes first) and stops it
// after: the same server scatters by ±10% from one process to the next on these machines, so a
// figure measured on one process per server carried that luck into every round. The publish
// throughput figure loads its servers in turn instead (interleaved.ts), which these machines need
// for a verdict.

const connections = 100;
export const warmUpSeconds = 2;
const runSeconds = 4;
// A second, paced load in each run: CPU per publish measured below saturation is the server's own
// cost, free of the scheduling noise of two saturated processes on a shared machine.
export const pacedRate = 2_000;
const pacedSeconds = 2;
const body = 'hello from the topics-emulator bench';

export interface Sample {
  requestsPerSecond: number;
  errors: number;
  non2xx: number;
  /** Share of one CPU the server used during the run: well under 1 means the load generator, not the server, was the limit. */
  serverCpu: number;
  /** Server CPU per publish, µs, at `pacedRate`. */
  cpuPerPublishUs: number;
}

export async function load(
  server: ServerProcess,
  seconds: number,
  overallRate?: number,
): Promise<Omit<Sample, 'cpuPerPublishUs'> & { cpuMs: number; total: number }> {
  const cpuBefore = await server.cpuMs();
  const started = nowMs();
  const result = await autocannon({
    url: `${server.url}${topicPath(devCredentials, 'bench-throughput')}`,
    connections,
    duration: seconds,
    method: 'POST',
    headers: publishHeaders(devCredentials),
    body,
    ...(overallRate !== undefined ? { overallRate } : {}),
  });
  const cpuMs = (await server.cpuMs()) - cpuBefore;
  return {
    requestsPerSecond: result.requests.average,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    serverCpu: cpuMs / (nowMs() - started),
    cpuMs,
    total: result.requests.total,
  };
}

/** A saturated run, then a paced one for the CPU per publish. */
export async function measure(server: ServerProcess): Promise<Sample> {
  const saturated = await load(server, runSeconds);
  const paced = await load(server, pacedSeconds, pacedRate);
  return {
    requestsPerSecond: saturated.requestsPerSecond,
    errors: saturated.errors + paced.errors,
    non2xx: saturated.non2xx + paced.non2xx,
    serverCpu: saturated.serverCpu,
    cpuPerPublishUs: (paced.cpuMs * 1000) / paced.total,
  };
}

/**
 * `runs` rounds; in each, every contender (in alternating order) is started, warmed up, measured
 * and stopped, the server and the load generator each on a CPU of its own (cpu-pinning.ts).
 * Returns each contender's samples, in its order.
 */
export async function freshRounds(
  entrants: readonly Contender[],
  runs: number,
  log: (message: string) => void,
  figure: string,
): Promise<Sample[][]> {
  const samples = entrants.map((): Sample[] => []);
  const cpus = pinCpus();
  log(`${figure}: ${cpus.description}`);
  try {
    for (let i = 0; i < runs; i++) {
      for (const k of alternating(i, [...entrants.keys()]))
        samples[k]!.push(await freshRound(entrants[k]!, i, cpus, log, figure));
    }
  } finally {
    cpus.release();
  }
  return samples;
}

async function freshRound(
  entrant: Contender,
  i: number,
  cpus: CpuPinning,
  log: (message: string) => void,
  figure: string,
): Promise<Sample> {
  const server = await ServerProcess.start(entrant.spec);
  try {
    cpus.server(server.pid);
    await load(server, warmUpSeconds);
    const sample = await measure(server);
    log(
      `${figure}: ${entrant.name} run ${i + 1}: ${sample.requestsPerSecond.toFixed(0)} req/s, server CPU ${(sample.serverCpu * 100).toFixed(0)}%; ${sample.cpuPerPublishUs.toFixed(0)} µs CPU per publish at ${pacedRate}/s`,
    );
    return sample;
  } finally {
    await server.stop();
  }
}

/** Server CPU per publish while saturated (µs): the share of a CPU used over the publishes served. */
export function saturatedCpuUs(sample: Sample): number {
  return (sample.serverCpu * 1e6) / sample.requestsPerSecond;
}
