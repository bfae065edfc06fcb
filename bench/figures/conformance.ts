import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nowMs } from '../clock.js';
import { repoRoot } from '../paths.js';
import type { BenchContext, Figure, FigureResult, Row } from './figure.js';

// The conformance suite's own default run, timed as a user would see it: `npm run conformance`.
// Only when the project has that script; otherwise the row says n/a.

const limitMs = 300_000;

function hasConformanceScript(): boolean {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  return manifest.scripts?.conformance !== undefined;
}

function runConformance(): Promise<{ ms: number; code: number | null; tail: string }> {
  const start = nowMs();
  const child = spawn('npm', ['run', '--silent', 'conformance'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
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
      resolve({ ms: nowMs() - start, code, tail: output.slice(-600) });
    });
  });
}

export const conformance: Figure = {
  name: 'conformance',
  async run(context: BenchContext): Promise<FigureResult> {
    const row: Row = { figure: 'conformance suite, default run', unit: 's', ours: null, baseline: null, baselineName: '—', ratio: null, target: '< 60 s', pass: null };
    if (!hasConformanceScript()) return { rows: [{ ...row, note: 'n/a: no `npm run conformance` script yet' }], details: {} };
    context.log('conformance: npm run conformance');
    const result = await runConformance();
    const seconds = result.ms / 1000;
    return {
      rows: [{ ...row, ours: seconds, pass: result.code === 0 && seconds < 60, ...(result.code !== 0 ? { note: `exit code ${result.code}` } : {}) }],
      details: { exitCode: result.code, outputTail: result.tail },
    };
  },
};
