import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nowMs } from '../clock.js';
import { repoRoot } from '../paths.js';
import { devCredentials } from '../load/publisher.js';
import { ServerProcess } from '../servers/server-process.js';
import type { ServerSpec } from '../servers/server-spec.js';
import type { BenchContext, Figure, FigureResult, Row } from './figure.js';

// The conformance suite's own default run, timed as a user would see it: `npm run conformance`.
// Only when the project has that script; otherwise the row says n/a.

const limitMs = 300_000;

function hasConformanceScript(): boolean {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  return manifest.scripts?.conformance !== undefined;
}

/** Seconds in bash's `times` line for children, e.g. `0m1.250s 0m0.310s` → 1.56. */
function childCpuSeconds(output: string): number | null {
  const lines = [...output.matchAll(/^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/gm)];
  const children = lines.at(-1);
  if (children === undefined) return null;
  const [, um, us, sm, ss] = children.map(Number) as [number, number, number, number, number];
  return um * 60 + us + sm * 60 + ss;
}

function runConformance(
  extraArgs: string[] = [],
): Promise<{ ms: number; cpuSeconds: number | null; code: number | null; tail: string }> {
  const start = nowMs();
  // bash's `times` reports the CPU of every process the run reaped (npm, the suite, the emulator
  // it spawns): set against the wall time, it tells waiting from working.
  const script = 'npm run --silent conformance -- "$@"; status=$?; echo; times; exit $status';
  const child = spawn('bash', ['-c', script, 'conformance', ...extraArgs], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const timer = setTimeout(() => child.kill('SIGTERM'), limitMs);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ ms: nowMs() - start, cpuSeconds: childCpuSeconds(output), code, tail: output.slice(-600) });
    });
  });
}

/** The same suite against an emulator the bench runs, whose own CPU time it can read. */
async function emulatorShare(
  spec: ServerSpec,
  log: (message: string) => void,
): Promise<{ cpuMs: number; wallMs: number; exitCode: number | null }> {
  const server = await ServerProcess.start(spec);
  try {
    log('conformance: again, against an emulator in a bench child');
    const before = await server.cpuMs();
    const result = await runConformance([
      '--base-url',
      server.url,
      '--token',
      server.apiKey,
      '--cache',
      devCredentials.cacheName,
    ]);
    return { cpuMs: (await server.cpuMs()) - before, wallMs: result.ms, exitCode: result.code };
  } finally {
    await server.stop();
  }
}

export const conformance: Figure = {
  name: 'conformance',
  async run(context: BenchContext): Promise<FigureResult> {
    const row: Row = {
      figure: 'conformance suite, default run',
      unit: 's',
      ours: null,
      baseline: null,
      baselineName: '—',
      ratio: null,
      target: '< 60 s',
      pass: null,
    };
    if (!hasConformanceScript())
      return { rows: [{ ...row, note: 'n/a: no `npm run conformance` script yet' }], details: {} };
    context.log('conformance: npm run conformance');
    const result = await runConformance();
    const seconds = result.ms / 1000;
    const cpu =
      result.cpuSeconds === null
        ? 'CPU time unknown'
        : `CPU of every process of the run: ${result.cpuSeconds.toFixed(1)} s of ${seconds.toFixed(1)} s wall`;
    const emulator = context.ours === undefined ? undefined : await emulatorShare(context.ours, context.log);
    const share =
      emulator === undefined
        ? ''
        : `; run again against an emulator in a bench child: the emulator used ${(emulator.cpuMs / 1000).toFixed(1)} s CPU of ${(emulator.wallMs / 1000).toFixed(1)} s wall`;
    return {
      rows: [
        {
          ...row,
          ours: seconds,
          pass: result.code === 0 && seconds < 60,
          note: `${cpu}${share}${result.code !== 0 ? `; exit code ${result.code}` : ''}`,
        },
      ],
      details: { exitCode: result.code, cpuSeconds: result.cpuSeconds, outputTail: result.tail, emulator },
    };
  },
};
