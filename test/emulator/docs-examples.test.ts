import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';

// Code examples of docs/ run as printed, with only their imports pointed at this repository and
// their addresses at a running emulator; each must print what its comments say and end.
// Probe (the typed-client example printed nothing and never ended).

const root = fileURLToPath(new URL('../..', import.meta.url));
let emulator: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', grpcPort: 0 });
  // Inside the repository, so that the examples' packages resolve from its node_modules.
  mkdirSync(join(root, '.tmp'), { recursive: true });
  dir = mkdtempSync(join(root, '.tmp', 'docs-examples-'));
});
afterAll(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The first code block of `lang` in a docs page, with its text replaced as `replace` says. */
function example(page: string, lang: string, replace: [string | RegExp, string][]): string {
  const markdown = readFileSync(join(root, 'docs', page), 'utf8');
  let code = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(markdown)![1]!;
  for (const [from, to] of replace) code = code.replace(from, to);
  return code;
}

/** Runs a file with tsx (TypeScript and ES modules alike); resolves with its exit code and output. */
async function run(file: string, code: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const path = join(dir, file);
  writeFileSync(path, code);
  // Not spawnSync: the emulator answering it runs in this process.
  const child = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), path], {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 30_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [exit] = (await once(child, 'close')) as [number | null];
  return { code: exit, stdout, stderr };
}

describe('the examples of docs/, as printed', () => {
  it('typed-client.md: prints the two messages it published and ends', async () => {
    const code = example('typed-client.md', 'ts', [
      ["'topics-emulator/client'", `'${join(root, 'client/index.ts')}'`],
      ['http://127.0.0.1:4545', emulator.url],
    ]);
    const result = await run('typed-client.mts', code);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual(['1 hello', '2 Uint8Array(3) [ 0, 1, 2 ]']);
  });

  it('cache.md: the SDK sets an item and reads it back, then ends', async () => {
    const [hostname, port] = emulator.grpcEndpoint!.split(':');
    const code = example('cache.md', 'js', [
      ["hostname: '127.0.0.1', port: 4546", `hostname: '${hostname}', port: ${port}`],
    ]);
    const result = await run('cache.mjs', code);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n').at(-1)).toBe('hello');
  });
});
