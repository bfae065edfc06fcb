import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { cliCommand } from '../helpers/cli.js';
import { checkFigure, count } from '../helpers/figures.js';
import { codeBlocks, type CodeBlock } from './blocks.js';

// `npm run test:docs`: every shell and code example of README.md and docs/ is run as printed (three docs
// examples failed as printed). Each block says above it, in an HTML comment, how it is run
// (blocks.ts); a block without one fails here, so a new example is run or says why not. Only the
// addresses (ports from the emulator each runs against) and the package's imports (this
// repository's sources) are changed.

const root = fileURLToPath(new URL('../..', import.meta.url));
const blocks = codeBlocks(root);
const named = (block: CodeBlock) => `${block.file}:${block.line}`;
const BLOCK_TIMEOUT_MS = 30_000;

let dir: string;
beforeAll(() => {
  // Inside the repository, so that the examples' packages resolve from its node_modules.
  mkdirSync(join(root, '.tmp'), { recursive: true });
  dir = mkdtempSync(join(root, '.tmp', 'docs-examples-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An emulator for one block: in this process, on free ports, long-polls short enough for a script's stragglers. */
const emulatorFor = () =>
  startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', grpcPort: 0, longPollTimeoutMs: 3000 });

/** The block pointed at this emulator (its printed ports: 4545 HTTP, 4546 gRPC) and this repository's sources. */
function localised(code: string, emulator: RunningEmulator): string {
  const http = emulator.url.replace('http://', '');
  const [grpcHost, grpcPort] = emulator.grpcEndpoint!.split(':');
  return code
    .replaceAll(/(127\.0\.0\.1|localhost):4545/g, http)
    .replaceAll(/(127\.0\.0\.1|localhost):4546/g, emulator.grpcEndpoint!)
    .replaceAll(/hostname: '127\.0\.0\.1', port: 4546/g, `hostname: '${grpcHost}', port: ${grpcPort}`)
    .replaceAll("from 'topics-emulator/vitest'", `from '${join(root, 'testing/vitest.ts')}'`)
    .replaceAll("from 'topics-emulator/client'", `from '${join(root, 'client/index.ts')}'`)
    .replaceAll("from 'topics-emulator'", `from '${join(root, 'emulator/index.ts')}'`);
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (bounded), or until its output shows `until`, then stops it. */
async function run(
  command: string,
  args: string[],
  options: { until?: string; env?: Record<string, string>; cwd?: string } = {},
) {
  const child = spawn(command, args, {
    cwd: options.cwd ?? dir,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  let seen: (() => void) | undefined;
  const shown = new Promise<void>((resolve) => (seen = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (options.until !== undefined && stdout.includes(options.until)) seen?.();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = once(child, 'close').then(([code]) => code as number | null);
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    closed.then(() => 'closed' as const),
    shown.then(() => 'shown' as const),
    new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), BLOCK_TIMEOUT_MS))),
  ]);
  clearTimeout(timer);
  if (outcome !== 'closed') {
    try {
      process.kill(-child.pid!, 'SIGTERM'); // its whole group: a shell's background jobs too
    } catch {
      // already gone
    }
  }
  const code = await closed;
  return { code: outcome === 'timeout' ? -1 : outcome === 'shown' ? 0 : code, stdout, stderr } satisfies Ran;
}

/** What no example may print: an error it does not itself mention, a refused connection, a missing command. */
function problemsIn(block: CodeBlock, ran: Ran): string[] {
  const output = ran.stdout + ran.stderr;
  const codes = [...output.matchAll(/"code":"(\w+)"/g)].map((m) => m[1]!);
  return [
    ...codes.filter((code) => !block.code.includes(code) && code !== 'limit_exceeded').map((c) => `answered ${c}`),
    ...(/curl: \(\d+\)/.exec(output) ?? []).map((m) => `curl failed: ${m}`),
    ...(/command not found/.exec(output) ?? []).map((m) => m),
  ];
}

/** The block's command lines, continuations joined, comments and blank lines left out. */
function commandLines(code: string): string[] {
  return code
    .replaceAll(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

const CLI = cliCommand.map((part) => (part.includes(' ') ? `'${part}'` : part)).join(' ');
const CONFORMANCE = `${process.execPath} --import tsx ${join(root, 'conformance/cli.ts')}`;
const withOurCommands = (line: string) =>
  line.replace(/^npx topics-emulator\b/, CLI).replace(/^npx topics-conformance\b/, CONFORMANCE);

/** docs/conformance.md's counts of the suite against the emulator, written by `npm run conformance` as the docs run it. */
function conformanceFigures(output: string): string[] {
  const summary = /(\d+) passed, (\d+) failed, \d+ warning\(s\), (\d+) observation\(s\), (\d+) skipped/.exec(output);
  if (!summary) return [`no summary line in:\n${output}`];
  const [passed, failed, observations, skipped] = summary.slice(1).map(Number) as [number, number, number, number];
  return [
    checkFigure('conformance-passed', passed, count),
    checkFigure('conformance-failed', failed, count),
    checkFigure('conformance-observations', observations, count),
    checkFigure('conformance-skipped', skipped, count),
  ].filter((problem) => problem !== undefined);
}

const runners: Record<string, (block: CodeBlock) => Promise<void>> = {
  async shell(block) {
    const emulator = await emulatorFor();
    try {
      const file = join(dir, `${basename(block.file, '.md')}-${block.line}.sh`);
      // Background jobs (a waiting subscribe) are waited for: the script ends when they have.
      writeFileSync(file, `${localised(block.code, emulator)}\nwait\n`);
      const ran = await run('bash', ['-e', file]);
      expect(ran.code, `${named(block)}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
      expect(problemsIn(block, ran), `${named(block)}\n${ran.stdout}`).toEqual([]);
    } finally {
      await emulator.close();
    }
  },
  async cli(block) {
    for (const line of commandLines(block.code)) {
      const ran = await run('bash', ['-c', withOurCommands(line)]);
      expect(ran.code, `${named(block)}: ${line}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
      if (line === 'npm run conformance') expect(conformanceFigures(ran.stdout)).toEqual([]);
    }
  },
  async starts(block) {
    const [command] = commandLines(block.code);
    // The printed ports become free ones (and the default ones too), in a directory of its own.
    const line = `${withOurCommands(command!).replaceAll(/(--[\w-]*port) \d+/g, '$1 0')} --port 0 --grpc-port 0 --tls-dir ${join(dir, `tls-${block.line}`)}`;
    const labels = [...block.code.matchAll(/^#\s+([A-Za-z][\w ]*?):\s/gm)].map((m) => `${m[1]}:`);
    const last = labels.at(-1) ?? 'Base URL:';
    const ran = await run('bash', ['-c', `exec ${line}`], { until: last });
    expect(ran.code, `${named(block)}: ${line}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
    for (const label of labels) expect(ran.stdout, named(block)).toContain(label);
  },
  async node(block) {
    const emulator = await emulatorFor();
    try {
      const file = join(dir, `${basename(block.file, '.md')}-${block.line}.${block.lang === 'ts' ? 'mts' : 'mjs'}`);
      writeFileSync(file, localised(block.code, emulator));
      const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
      const prints = block.argument || undefined;
      const ran = await run(process.execPath, [tsx, file], prints === undefined ? {} : { until: prints });
      expect(ran.code, `${named(block)}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
      if (prints !== undefined) expect(ran.stdout).toContain(prints);
    } finally {
      await emulator.close();
    }
  },
  async vitest(block) {
    const emulator = await emulatorFor();
    try {
      const folder = join(dir, `vitest-${basename(block.file, '.md')}-${block.line}`);
      mkdirSync(folder);
      writeFileSync(join(folder, 'example.test.ts'), localised(block.code, emulator));
      // A config of its own, so that the repository's (which includes test/**) is not used.
      writeFileSync(join(folder, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'] } };\n");
      const vitest = join(root, 'node_modules/vitest/vitest.mjs');
      const ran = await run(process.execPath, [vitest, 'run', '--config', 'vitest.config.mjs'], { cwd: folder });
      expect(ran.code, `${named(block)}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
    } finally {
      await emulator.close();
    }
  },
  async elsewhere(block) {
    const path = join(root, block.argument);
    expect(existsSync(path), `${named(block)}: ${block.argument} does not exist`).toBe(true);
    const text = readFileSync(path, 'utf8');
    const [first] = commandLines(block.code);
    expect(
      text.includes(basename(block.file)) || (first !== undefined && text.includes(first)),
      `${named(block)}: ${block.argument} neither names ${basename(block.file)} nor runs ${first}`,
    ).toBe(true);
  },
  async 'not run'(block) {
    expect(block.argument, `${named(block)}: say why it is not run`).toMatch(/\w{4}/);
  },
};

describe('the examples of README.md and docs/', () => {
  it.concurrent.each(blocks.filter((b) => b.mode !== undefined).map((b) => [`${named(b)} (${b.mode})`, b] as const))(
    '%s',
    async (_name, block) => runners[block.mode!]!(block),
    90_000,
  );
});
