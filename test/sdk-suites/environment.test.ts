import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrlOf, printed, runCli, type CliRun } from '../helpers/cli.js';

// SDK programs configured as the provider's examples are, from the environment alone: the
// banner's MOMENTO_API_KEY and one trust setting (NODE_EXTRA_CA_CERTS, the local authority),
// against `topics-emulator --grpc-tls-port`. The programs (programs/) take the examples' calls;
// each runs in its own Node process, as a user's program does.

const programs = new URL('./programs/', import.meta.url).pathname;
const tlsDir = mkdtempSync(join(tmpdir(), 'sdk-env-tls-'));
let run: CliRun;
let baseUrl: string;
let apiKey: string;
let caFile: string;

beforeAll(async () => {
  run = runCli(['--port', '0', '--grpc-tls-port', '0', '--tls-dir', tlsDir]);
  baseUrl = await baseUrlOf(run);
  apiKey = /MOMENTO_API_KEY=(\S+)/.exec(await printed(run, /MOMENTO_API_KEY=\S+/))![1]!;
  caFile = /NODE_EXTRA_CA_CERTS=(\S+)/.exec(await printed(run, /NODE_EXTRA_CA_CERTS=\S+/))![1]!;
});
afterAll(async () => {
  run?.child.kill('SIGTERM');
  await run?.exited;
  rmSync(tlsDir, { recursive: true, force: true });
});

/** The environment a user's shell has, with only what the banner says to set. */
function environment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  // grpc-js reads its roots from this file instead of Node's store when it is set (some CI images set it).
  delete env['GRPC_DEFAULT_SSL_ROOTS_FILE_PATH'];
  return env;
}

async function runProgram(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 30_000) {
  const child = spawn(process.execPath, args, { env, cwd: new URL('../..', import.meta.url).pathname });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(killer);
  return { code, stdout, stderr };
}

describe('an SDK program configured from the environment alone', () => {
  it("runs the provider's topic examples' calls with MOMENTO_API_KEY and NODE_EXTRA_CA_CERTS: cache made, messages back", async () => {
    const env = environment({ MOMENTO_API_KEY: apiKey, NODE_EXTRA_CA_CERTS: caFile });
    const result = await runProgram([`${programs}topics-example.mjs`, 'env-cache', 'env-topic', 'one', 'two'], env);
    expect(result.stdout, result.stderr).toBe('received one\nreceived two\n');
    expect(result.code).toBe(0);
    // Over the gRPC door, with the key: the calls are journalled there.
    const journal = (await (await fetch(`${baseUrl}/_emulator/requests?protocol=grpc&topic=env-topic`)).json()) as {
      entries: { operation: string; status: number }[];
    };
    expect(journal.entries.filter((e) => e.operation === 'publish').map((e) => e.status)).toEqual([200, 200]);
  });

  it('is refused without the trust setting: the certificate is checked, not skipped', async () => {
    const env = environment({ MOMENTO_API_KEY: apiKey });
    const result = await runProgram([`${programs}topics-example.mjs`, 'env-cache', 'untrusted', 'x'], env);
    expect(result.code).not.toBe(0);
    expect(result.stdout).not.toContain('received');
  });

  it('the same key authenticates on the HTTP API: curl and the SDK share it', async () => {
    const response = await fetch(`${baseUrl}/topics/default-cache/shared-key`, {
      method: 'POST',
      headers: { authorization: apiKey, 'content-type': 'text/plain' },
      body: 'hi',
    });
    expect(response.status).toBe(204);
    const forged = apiKey.slice(0, -2) + (apiKey.endsWith('AA') ? 'BB' : 'AA');
    const refused = await fetch(`${baseUrl}/topics/default-cache/shared-key`, {
      method: 'POST',
      headers: { authorization: forged, 'content-type': 'text/plain' },
      body: 'hi',
    });
    expect(refused.status).toBe(401);
  });

  it("keeps receiving across token refreshes, as the provider's refresh-token example does", async () => {
    const env = environment({ MOMENTO_API_KEY: apiKey, NODE_EXTRA_CA_CERTS: caFile });
    // The example uses the cache 'cache', which the provider's other examples make.
    expect((await runProgram([`${programs}topics-example.mjs`, 'cache', 'warm-up', 'x'], env)).code).toBe(0);
    const result = await runProgram(
      ['--import', `${programs}localhost-names.mjs`, `${programs}refresh-token.mjs`, '7000'],
      env,
      60_000,
    );
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as {
      published: string[];
      received: string[];
      errors: string[];
      refreshes: number;
    };
    expect(summary.errors).toEqual([]);
    expect(summary.refreshes).toBeGreaterThanOrEqual(2);
    expect(summary.received).toEqual(summary.published);
  });
});
