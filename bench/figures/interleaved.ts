import { pause } from '../clock.js';
import { pinCpus } from '../cpu-pinning.js';
import { KeepAliveLoad } from '../load/keep-alive-load.js';
import { ServerProcess } from '../servers/server-process.js';
import { alternating, type Contender } from './figure.js';

// Servers compared by loading them in turn, a fraction of a second each, many times over, while
// they stand side by side on the server's CPU (the idle one waits in epoll and uses none). On
// these machines the host's speed moves by up to 2× within seconds: servers
// measured one after the other for seconds each (as autocannon does) are
// judged by the host's moment as much as by their own cost (one run's per-round ratios spanned
// 0.32–1.08×). Turns of 300 ms share every such swing between the servers. Each round still
// starts every server afresh: the same build scatters by ±5% from one process to the next.

/** What one contender did over one round's turns. */
export interface RoundTotals {
  /** Answers with a 2xx status. */
  requests: number;
  /** Other answers, and connections lost. */
  failures: number;
  /** Wall-clock milliseconds of its turns, each from its first request to its last answer. */
  ms: number;
  /** CPU milliseconds its process used over its turns. */
  cpuMs: number;
}

export interface InterleavedOptions {
  rounds: number;
  /** Turns per contender per round. */
  turns: number;
  turnMs: number;
  /** One turn of this length per contender before the counted ones. */
  warmUpMs: number;
  connections: number;
  /** The request each connection sends, as bytes, for a server at `url` (the `contender`-th). */
  request(url: string, contender: number): Buffer;
}

/** Requests per second over some totals. */
export function rateOf(totals: readonly RoundTotals[]): number {
  const ms = totals.reduce((sum, round) => sum + round.ms, 0);
  return ms === 0 ? 0 : (totals.reduce((sum, round) => sum + round.requests, 0) * 1000) / ms;
}

/** The share of one CPU a server used over its turns: well under 1 means the load, not the server, set its rate. */
export function cpuShareOf(totals: readonly RoundTotals[]): number {
  const ms = totals.reduce((sum, round) => sum + round.ms, 0);
  return ms === 0 ? 0 : totals.reduce((sum, round) => sum + round.cpuMs, 0) / ms;
}

/** Server CPU per answered request, µs, over some totals. */
export function cpuPerRequestUs(totals: readonly RoundTotals[]): number {
  const requests = totals.reduce((sum, round) => sum + round.requests, 0);
  return requests === 0 ? 0 : (totals.reduce((sum, round) => sum + round.cpuMs, 0) * 1000) / requests;
}

/** One turn: the load runs for `ms`, then every request in flight is answered. */
async function turn(server: ServerProcess, load: KeepAliveLoad, ms: number): Promise<RoundTotals> {
  const { answered, refused, errors } = load.counts;
  const cpuBefore = await server.cpuMs();
  const started = performance.now();
  load.start();
  await pause(ms);
  await load.stop();
  const elapsed = performance.now() - started;
  return {
    requests: load.counts.answered - answered,
    failures: load.counts.refused - refused + load.counts.errors - errors,
    ms: elapsed,
    cpuMs: (await server.cpuMs()) - cpuBefore,
  };
}

/** Each contender's totals, round by round: `result[contender][round]`. */
export async function interleavedRounds(
  contenders: readonly Contender[],
  options: InterleavedOptions,
  log: (message: string) => void,
  figure: string,
): Promise<RoundTotals[][]> {
  const results = contenders.map((): RoundTotals[] => []);
  const cpus = pinCpus();
  log(`${figure}: ${cpus.description}; ${contenders.map((c) => c.name).join(' and ')} side by side, loaded in turn`);
  try {
    for (let round = 0; round < options.rounds; round++) {
      const servers: ServerProcess[] = [];
      const loads: KeepAliveLoad[] = [];
      try {
        for (const k of alternating(round, [...contenders.keys()])) {
          const server = await ServerProcess.start(contenders[k]!.spec);
          servers[k] = server;
          cpus.server(server.pid);
        }
        for (const [k, server] of servers.entries())
          loads[k] = await KeepAliveLoad.open(server.url, options.request(server.url, k), options.connections);
        for (const k of contenders.keys()) await turn(servers[k]!, loads[k]!, options.warmUpMs);
        const totals = contenders.map((): RoundTotals => ({ requests: 0, failures: 0, ms: 0, cpuMs: 0 }));
        for (let t = 0; t < options.turns; t++) {
          for (const k of alternating(t + round, [...contenders.keys()])) {
            const one = await turn(servers[k]!, loads[k]!, options.turnMs);
            const sum = totals[k]!;
            sum.requests += one.requests;
            sum.failures += one.failures;
            sum.ms += one.ms;
            sum.cpuMs += one.cpuMs;
          }
        }
        totals.forEach((sum, k) => results[k]!.push(sum));
        log(
          `${figure}: round ${round + 1}: ${contenders
            .map(
              (c, k) =>
                `${c.name} ${rateOf([totals[k]!]).toFixed(0)} req/s (${cpuPerRequestUs([totals[k]!]).toFixed(1)} µs CPU each)`,
            )
            .join(', ')}`,
        );
      } finally {
        for (const load of loads) load?.close();
        for (const server of servers) await server?.stop();
      }
    }
  } finally {
    cpus.release();
  }
  return results;
}
