import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'undici';
import { nowMs, pause } from '../clock.js';
import { devCredentials, publishHeaders, topicPath } from '../load/publisher.js';
import { benchDir, childExecArgv, moduleExtension, repoRoot } from '../paths.js';
import { median } from '../stats.js';
import { ratioOf, runOrder, type BenchContext, type Figure, type FigureResult } from './figure.js';

// Start-up: from spawning `node <cli>` to the first successful answer. For the emulator that is a
// 204 to an authenticated publish; for B-fastify, a 200 to a GET. Both print `Base URL: ...` when
// listening, and the clock runs until the answer is read, so module loading, listening and the
// first request's cold path all count.

const baseUrlPattern = /Base URL:\s+(http:\/\/\S+)/;

export interface Contender {
  name: string;
  args: string[];
  request: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; status: number };
}

/** Milliseconds from spawning `node <args>` to the contender's first successful answer; then stops it. */
export async function timeStart(contender: Contender): Promise<number> {
  const start = nowMs();
  const child = spawn(process.execPath, contender.args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(
        () => reject(new Error(`${contender.name}: no Base URL within 10 s: ${output}`)),
        10_000,
      );
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = baseUrlPattern.exec(output);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${contender.name} exited (${code}) before listening: ${output}`));
      });
    });
    const client = new Client(url);
    try {
      const deadline = start + 10_000;
      for (;;) {
        try {
          const response = await client.request({ path: topicPath(devCredentials, 'startup'), ...contender.request });
          await response.body.dump();
          if (response.statusCode === contender.request.status) return nowMs() - start;
          throw new Error(`${contender.name}: answered ${response.statusCode}`);
        } catch (error) {
          if (nowMs() > deadline) throw error;
          await pause(2);
        }
      }
    } finally {
      await client.close();
    }
  } finally {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

/** The emulator's CLI, answered by an authenticated publish; `nodeFlags` e.g. --cpu-prof. */
export function emulatorContender(cli: string, nodeFlags: string[] = []): Contender {
  return {
    name: 'ours',
    args: [...nodeFlags, cli, '--port', '0', '--log-level', 'warn'],
    request: { method: 'POST', headers: publishHeaders(devCredentials), body: 'hello', status: 204 },
  };
}

export function bFastifyContender(nodeFlags: string[] = []): Contender {
  return {
    name: 'b-fastify',
    args: [
      ...childExecArgv,
      ...nodeFlags,
      join(benchDir, 'baselines', `cli${moduleExtension}`),
      'b-fastify',
      '--port',
      '0',
    ],
    request: { method: 'GET', headers: {}, status: 200 },
  };
}

export const startup: Figure = {
  name: 'startup',
  async run(context: BenchContext): Promise<FigureResult> {
    const ours = context.emulatorCli === undefined ? undefined : emulatorContender(context.emulatorCli);
    const baseline = bFastifyContender();
    const samples = new Map<string, number[]>();
    const runs = Math.max(5, context.options.runs);
    await timeStart(baseline); // warm the file-system cache for both before timing
    if (ours !== undefined) await timeStart(ours);
    for (let i = 0; i < runs; i++) {
      for (const contender of runOrder(i, ours, baseline)) {
        samples.set(contender.name, [...(samples.get(contender.name) ?? []), await timeStart(contender)]);
      }
    }
    const pick = (name: string): number | null => (samples.has(name) ? median(samples.get(name) ?? []) : null);
    context.log(`start-up: ours ${pick('ours')?.toFixed(0)} ms, B-fastify ${pick('b-fastify')?.toFixed(0)} ms`);
    const ratio = ratioOf(pick('ours'), pick('b-fastify'));
    const oursMs = pick('ours');
    return {
      rows: [
        {
          figure: 'start-up via node dist/cli (not npx, which adds its own start): spawn to first successful publish',
          unit: 'ms',
          ours: oursMs,
          baseline: pick('b-fastify'),
          baselineName: 'B-fastify spawn→response',
          ratio,
          target: '≤ 1.3× and < 1000 ms',
          pass: ratio === null || oursMs === null ? null : ratio <= 1.3 && oursMs < 1000,
        },
      ],
      details: { runs, samples: Object.fromEntries(samples) },
    };
  },
};
