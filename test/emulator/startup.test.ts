import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// Start-up time comes mostly from what is loaded and compiled before the first
// request. These libraries are loaded on first use only; the check runs in a fresh process.

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'topics-emulator-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const script = `
import { createRequire } from 'node:module';
import { startEmulator } from ${JSON.stringify(`${root}emulator/index.ts`)};
// Each library by its entry module (the generated validators use Ajv's small runtime helpers,
// and fastify's prebuilt error serializer fast-json-stringify's, without loading either library).
const entries = { ajv: '/ajv/dist/ajv.js', 'ajv-formats': '/ajv-formats/dist/index.js', yaml: '/yaml/dist/index.js', 'fast-json-stringify': '/fast-json-stringify/index.js' };
const loaded = () => Object.entries(entries).filter(([, entry]) => Object.keys(createRequire(import.meta.url).cache).some((p) => p.endsWith(entry))).map(([name]) => name);
const emulator = await startEmulator({ port: 0, logLevel: 'silent' });
const publish = await fetch(emulator.url + '/topics/default-cache/t', { method: 'POST', headers: { authorization: emulator.apiKey, 'content-type': 'text/plain' }, body: 'x' });
const afterPublish = [...new Set(loaded())].sort();
const fault = await fetch(emulator.url + '/_emulator/faults', { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: 'status: 503\\ncount: 1\\n' });
const afterControl = [...new Set(loaded())].sort();
await emulator.close();
console.log(JSON.stringify({ publish: publish.status, afterPublish, fault: fault.status, afterControl }));
`;

describe('start-up', () => {
  it('serves a publish without loading Ajv, fast-json-stringify or yaml; the control plane loads what it needs when called', async () => {
    const file = join(dir, 'start.mts');
    writeFileSync(file, script);
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      timeout: 30_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(result).toEqual({
      publish: 204,
      afterPublish: [],
      fault: 201,
      afterControl: ['ajv', 'ajv-formats', 'yaml'],
    });
  });
});
