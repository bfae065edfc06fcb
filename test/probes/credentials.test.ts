import { hash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorEvent } from '../../emulator/events.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { baseUrlOf, runCli, type CliRun } from '../helpers/cli.js';

// Probe: `POST /topics/c/t;token=SECRET` (401), `?token%3DSECRET` and `?token[]=SECRET` kept the
// secret in the journal's `path` and `topic`, in the event stream, and (the encoded forms) in
// trace logs; a client without a token id was named by the first 12 hex of an unsalted SHA-256
// of its key, which anyone can test a guess against.

const SECRET = 'SECRETSECRET-4242';
const spellings = [
  ['POST', `/topics/default-cache/t;token=${SECRET}`],
  ['POST', `/topics/default-cache/t%3Btoken=${SECRET}`],
  ['GET', `/topics/default-cache/t?token%3D${SECRET}`],
  ['GET', `/topics/default-cache/t?token[]=${SECRET}`],
  ['GET', `/topics/default-cache/t?token[0]=${SECRET}&sequence_number=1`],
  ['GET', `/topics/default-cache/t?sequence_number=1;token=${SECRET}`],
] as const;

const send = (base: string, [method, path]: readonly [string, string]) =>
  fetch(base + path, {
    method,
    headers: { 'content-type': 'text/plain' },
    ...(method === 'POST' ? { body: 'x' } : {}),
  }).then((r) => r.arrayBuffer());

let emulator: RunningEmulator | undefined;
let run: CliRun | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
  if (run && run.child.exitCode === null) run.child.kill('SIGKILL');
  await run?.exited;
});

describe('a token in the path or in an odd spelling of the query', () => {
  it('is kept neither by the journal nor by the event stream', async () => {
    emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
    const events: EmulatorEvent[] = [];
    emulator.context.events.on((event) => events.push(event), ['request']);
    for (const spelling of spellings) await send(emulator.url, spelling);
    const journal = JSON.stringify((await emulator.requests({ limit: 100 })).entries);
    expect(journal).toContain('[redacted]');
    expect(journal).not.toContain(SECRET);
    expect(events.length).toBeGreaterThanOrEqual(spellings.length);
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });

  it('reaches no log line, even at trace level', async () => {
    run = runCli(['--port', '0', '--log-level', 'trace']);
    const url = await baseUrlOf(run);
    for (const spelling of spellings) await send(url, spelling);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const logs = run.stdout() + run.stderr();
    expect(logs).toContain('[redacted]');
    expect(logs).not.toContain(SECRET);
  });
});

describe('a client without a token id', () => {
  it('is named by a digest keyed by the signing key: not the bare SHA-256 of its key, the same on every replica', async () => {
    const key = 'a-client-api-key-0001';
    const names: string[] = [];
    for (const signingKey of ['signing-key-one-0000000', 'signing-key-one-0000000', 'signing-key-two-0000000']) {
      emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', apiKeys: [key], signingKey });
      await fetch(`${emulator.url}/topics/default-cache/t`, {
        method: 'POST',
        headers: { authorization: key, 'content-type': 'text/plain' },
        body: 'x',
      });
      const [entry] = (await emulator.requests({ operation: 'publish', limit: 1 })).entries;
      names.push(entry!.client!);
      await emulator.close();
      emulator = undefined;
    }
    expect(names[0]).toMatch(/^key:#[0-9a-f]{12}$/);
    expect(names[0]).not.toBe(`key:#${hash('sha256', key, 'hex').slice(0, 12)}`);
    expect(names[1]).toBe(names[0]);
    expect(names[2]).not.toBe(names[0]);
  });
});
