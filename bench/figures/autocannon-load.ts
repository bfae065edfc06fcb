import autocannon from 'autocannon';
import { nowMs } from '../clock.js';
import { devCredentials, publishHeaders, topicPath } from '../load/publisher.js';
import type { ServerProcess } from '../servers/server-process.js';

// Autocannon load (100 connections POSTing text to one topic, authenticated with the dev key)
// against one server for some seconds: the Redis figure's throughput, where Redis's round trip,
// not the host's swings, sets the rate. The publish throughput and journal figures load their
// servers in turn instead (interleaved.ts), which these machines need for a verdict.

const connections = 100;
export const warmUpSeconds = 2;
const body = 'hello from the topics-emulator bench';

export interface LoadResult {
  requestsPerSecond: number;
  errors: number;
  non2xx: number;
  /** Share of one CPU the server used during the run: well under 1 means the load generator, not the server, was the limit. */
  serverCpu: number;
  /** CPU milliseconds the server used. */
  cpuMs: number;
  /** Requests answered. */
  total: number;
}

/** `seconds` of load on `server`, at most `overallRate` requests a second when given. */
export async function load(server: ServerProcess, seconds: number, overallRate?: number): Promise<LoadResult> {
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
