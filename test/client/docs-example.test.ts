import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';

// Probe (the typed-client example printed nothing and never ended): docs/typed-client.md's example
// is run as printed, with only its import pointed at this repository's client and its base URL
// at a running emulator; it must print both messages and end.

const root = fileURLToPath(new URL('../..', import.meta.url));
let emulator: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
  dir = mkdtempSync(join(tmpdir(), 'typed-client-example-'));
});
afterAll(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("docs/typed-client.md's example", () => {
  it('prints the two messages it published and ends', async () => {
    const markdown = readFileSync(join(root, 'docs/typed-client.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/
      .exec(markdown)![1]!
      .replace("'topics-emulator/client'", `'${join(root, 'client/index.ts')}'`)
      .replace('http://127.0.0.1:4545', emulator.url);
    const file = join(dir, 'example.mts');
    writeFileSync(file, example);
    // Not spawnSync: the emulator answering it runs in this process.
    const child = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), file], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code, stderr).toBe(0);
    expect(stdout.trim().split('\n')).toEqual(['1 hello', '2 Uint8Array(3) [ 0, 1, 2 ]']);
  });
});
