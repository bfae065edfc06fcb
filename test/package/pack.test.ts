import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRoundTrip } from './topics-round-trip.js';
import { checkFigure, mib } from '../helpers/figures.js';

// The npm package as a user gets it: `npm pack`, installed into a fresh project, started with
// npx, imported as a library. Heavy (a build and an install from the registry): `npm run test:package`.

const execFileAsync = promisify(execFile);

/** execFile, but a failure's message carries the command's own output (tsc errors go to stdout). */
async function run(
  file: string,
  args: string[],
  options: { cwd?: string; timeout: number },
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync(file, args, { ...options, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '', message } = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${message.split('\n')[0]}\n${stdout}\n${stderr}`.trim());
  }
}
const repoRoot = resolve(import.meta.dirname, '../..');
const DEV_API_KEY = 'topics-emulator-dev-key';

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: Array<{ path: string; size: number }>;
}

let workDir: string;
let projectDir: string;
let packed: PackResult;
/** Every process group a test started, killed in teardown if still there. */
const processGroups: ChildProcess[] = [];

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'topics-emulator-pack-'));
  projectDir = join(workDir, 'project');
  // `npm pack` runs `prepare` (the build), so the tarball holds a fresh dist/.
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', workDir], {
    cwd: repoRoot,
    timeout: 300_000,
  });
  const results = JSON.parse(stdout.slice(stdout.indexOf('['))) as PackResult[];
  expect(results).toHaveLength(1);
  packed = results[0]!;
  // docs/in-your-tests.md's figures, written by this measurement (UPDATE_FIGURES=1).
  expect(checkFigure('package-packed', packed.size, mib)).toBeUndefined();
  expect(checkFigure('package-unpacked', packed.unpackedSize, mib)).toBeUndefined();
  console.log(
    `package ${packed.filename}: ${kib(packed.size)} packed, ${kib(packed.unpackedSize)} unpacked, ${packed.entryCount} files`,
  );

  await mkdir(projectDir);
  await writeFile(
    join(projectDir, 'package.json'),
    JSON.stringify({ name: 'fresh-project', private: true, type: 'module' }),
  );
  await run('npm', ['install', '--no-audit', '--no-fund', join(workDir, packed.filename)], {
    cwd: projectDir,
    timeout: 300_000,
  });
}, 600_000);

afterAll(async () => {
  for (const child of processGroups) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('npm package', () => {
  it('holds only what users need: no tests, fixtures, sources or benchmarks', () => {
    const paths = packed.files.map((f) => f.path);
    const unwanted = paths.filter(
      (p) =>
        /(^|\/)(test|tests|__tests__|fixtures|bench|coverage|node_modules)\//.test(p) ||
        /\.test\.(ts|js|d\.ts|js\.map)$/.test(p) ||
        (p.endsWith('.ts') && !p.endsWith('.d.ts')),
    );
    expect(unwanted).toEqual([]);
    expect(paths).toEqual(
      expect.arrayContaining([
        'package.json',
        'dist/cli/topics-emulator.js',
        'dist/emulator/redis/lua/publish.lua',
        'dist/emulator/index.js',
        'dist/emulator/index.d.ts',
        'dist/dashboard/index.html',
        'dist/dashboard/dashboard.js',
        'dist/dashboard/dashboard.css',
        // The types generated from the documents, which the client's and the modules' types import.
        'dist/openapi/generated/control-types.d.ts',
        'dist/openapi/generated/topics-types.d.ts',
        'openapi/topics.yaml',
        // The pages the README links to.
        'docs/configuration.md',
      ]),
    );
  });

  it('declares bins that exist in the installed package and start with a node shebang', async () => {
    const manifest = JSON.parse(
      await readFile(join(projectDir, 'node_modules/topics-emulator/package.json'), 'utf8'),
    ) as {
      bin: Record<string, string>;
    };
    expect(Object.keys(manifest.bin)).toContain('topics-emulator');
    for (const [name, file] of Object.entries(manifest.bin)) {
      const text = await readFile(join(projectDir, 'node_modules/topics-emulator', file), 'utf8');
      expect(text.startsWith('#!/usr/bin/env node'), `bin ${name} -> ${file}`).toBe(true);
    }
  });

  it('points every exports entry at files the package holds', async () => {
    const paths = new Set(packed.files.map((f) => f.path));
    const manifest = JSON.parse(
      await readFile(join(projectDir, 'node_modules/topics-emulator/package.json'), 'utf8'),
    ) as { exports: unknown };
    const targets: string[] = [];
    const collect = (value: unknown): void => {
      if (typeof value === 'string') targets.push(value.replace(/^\.\//, ''));
      else if (value && typeof value === 'object') Object.values(value).forEach(collect);
    };
    collect(manifest.exports);
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((target) => !paths.has(target))).toEqual([]);
  });

  it('offers npx topics-conformance, with its runtime dependencies installed', async () => {
    const { stdout } = await run('npx', ['topics-conformance', '--help'], { cwd: projectDir, timeout: 60_000 });
    expect(stdout).toContain('Usage: topics-conformance');
  });

  it('imports as an ES module library: startEmulator() serves health and the dashboard', async () => {
    await writeFile(
      join(projectDir, 'check.mjs'),
      [
        "import { startEmulator } from 'topics-emulator';",
        "const emulator = await startEmulator({ port: 0, logLevel: 'silent' });",
        "const response = await fetch(emulator.url + '/_emulator/health');",
        "const dashboard = await fetch(emulator.url + '/_emulator/ui/dashboard.js');",
        'const script = await dashboard.text();',
        'console.log(JSON.stringify({ status: response.status, body: await response.json(), dashboard: dashboard.status, bytes: script.length }));',
        'await emulator.close();',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: projectDir, timeout: 30_000 });
    const result = JSON.parse(stdout.trim()) as {
      status: number;
      body: { status: string };
      dashboard: number;
      bytes: number;
    };
    expect(result.status).toBe(200);
    expect(result.body.status).toBe('ok');
    expect(result.dashboard).toBe(200);
    expect(result.bytes).toBeGreaterThan(10_000);
  });

  it('type-checks a TypeScript consumer against the published declarations', async () => {
    await writeFile(
      join(projectDir, 'check.ts'),
      [
        "import { startEmulator } from 'topics-emulator';",
        "const emulator = await startEmulator({ port: 0, logLevel: 'silent' });",
        'const url: string = emulator.url;',
        'const key: string = emulator.apiKey;',
        'await emulator.close();',
        'export { url, key };',
      ].join('\n'),
    );
    const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
    const args = [
      '--noEmit',
      '--strict',
      '--target',
      'es2022',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
    ];
    args.push('--skipLibCheck', '--typeRoots', join(repoRoot, 'node_modules/@types'), '--types', 'node', 'check.ts');
    const result = await execFileAsync(process.execPath, [tsc, ...args], { cwd: projectDir, timeout: 120_000 }).catch(
      (error: { stdout?: string; message: string }) => ({ stdout: error.stdout || error.message }),
    );
    expect(result.stdout.trim()).toBe('');
  }, 180_000);

  it('runs with npx from the fresh project: round trip, then SIGTERM stops the whole process group', async () => {
    // Terminals, CI runners and process managers signal the process group.
    const emulator = await startProcess('npx', ['topics-emulator', '--port', '0']);
    await expectRoundTrip(emulator.baseUrl, DEV_API_KEY, 'default-cache', `npx-${Date.now()}`);

    process.kill(-emulator.child.pid!, 'SIGTERM');
    // 'close' comes once every process holding the output pipes has exited: npx, sh and the emulator.
    await withTimeout(
      once(emulator.child, 'close'),
      15_000,
      () => `not all gone 15 s after SIGTERM; output:\n${emulator.output()}`,
    );
  }, 60_000);

  it('stops when npx alone gets SIGTERM, though the shell npx runs it under does not pass the signal on', async () => {
    const emulator = await startProcess('npx', ['topics-emulator', '--port', '0']);
    await expectRoundTrip(emulator.baseUrl, DEV_API_KEY, 'default-cache', `npx-alone-${Date.now()}`);
    emulator.child.kill('SIGTERM'); // npx only: sh and the emulator are not signalled
    // 'close' comes once every process holding the output pipes has exited, the emulator too.
    await withTimeout(
      once(emulator.child, 'close'),
      15_000,
      () => `the emulator outlived npx by 15 s; output:\n${emulator.output()}`,
    );
    expect(emulator.output()).toContain('"signal":"npx exited"');
  }, 60_000);

  it('the installed bin exits 0 on SIGTERM after serving', async () => {
    const emulator = await startProcess(join(projectDir, 'node_modules/.bin/topics-emulator'), ['--port', '0']);
    await expectRoundTrip(emulator.baseUrl, DEV_API_KEY, 'default-cache', `bin-${Date.now()}`);

    const exited = once(emulator.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    emulator.child.kill('SIGTERM');
    const [code, signal] = await withTimeout(
      exited,
      15_000,
      () => `no exit 15 s after SIGTERM; output:\n${emulator.output()}`,
    );
    expect({ code, signal }, emulator.output()).toEqual({ code: 0, signal: null });
  }, 60_000);
});

interface EmulatorProcess {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
}

/** Starts a command in its own process group and resolves with the Base URL it prints. */
async function startProcess(command: string, args: string[]): Promise<EmulatorProcess> {
  const child = spawn(command, args, { cwd: projectDir, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  processGroups.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`no 'Base URL:' line within 30 s; output:\n${output}`)), 30_000);
    child.stdout?.on('data', () => {
      const match = /Base URL:\s+(http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited early (code ${code}, signal ${signal}); output:\n${output}`));
    });
  });
  return { child, baseUrl, output: () => output };
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message())), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}
