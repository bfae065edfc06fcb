// `topics-conformance history` as a user runs it: a run that writes its history and reports and
// exits 0 on the emulator, the same history checked again later, a fixture's anomaly exiting 1,
// and usage errors exiting 2.
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { startConcurrencyFaultServer, type ConcurrencyFaultServer } from '../../fixtures/concurrent/server.js';
import { conformanceCli } from './conformance-cli.js';

let emulator: RunningEmulator;
let duplicating: ConcurrencyFaultServer;
const dir = mkdtempSync(join(tmpdir(), 'history-cli-'));

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
  duplicating = await startConcurrencyFaultServer({ upstream: emulator.url, fault: 'duplicate-concurrent-publish' });
});
afterAll(async () => {
  await duplicating?.close();
  await emulator?.close();
});

const history = (args: string[]) => conformanceCli(['history', ...args]);

const against = (url: string) => ['--base-url', url, '--token', emulator.apiKey, '--cache', 'default-cache'];

describe.concurrent('topics-conformance history', () => {
  it('exits 0 on the emulator, writes the history and reports, and checks the same history again with --check', async () => {
    const file = join(dir, 'clean.jsonl');
    const json = join(dir, 'clean.json');
    const junit = join(dir, 'clean.xml');
    const run = await history([
      ...against(emulator.url),
      '--duration',
      '2',
      '--strict',
      '--history',
      file,
      '--report',
      `json=${json}`,
      '--report',
      `junit=${junit}`,
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ok {3}lost +0/m);
    expect(run.stdout).toContain('No anomalies counted against the endpoint.');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'run', publishers: 4, subscribers: 8, strict: true });
    expect(lines.join('\n')).not.toContain(emulator.apiKey);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ exitCode: 0, strict: true });
    expect(readFileSync(junit, 'utf8')).toContain('failures="0"');
    const again = await history(['--check', file]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${lines.length} events`);
  });

  it('exits 1 with the anomaly, its witness and curl lines that replay the reads', async () => {
    const run = await history([...against(duplicating.url), '--duration', '2']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^FAIL duplicated +\d+/m);
    expect(run.stdout).toMatch(
      /curl -sS --max-time 10 -H "Authorization: \$TOKEN" 'http:\/\/127\.0\.0\.1:\d+\/topics\/default-cache\/history-/,
    );
  });

  it('exits 2 on usage errors: a history line it cannot read, page changes against an endpoint without a control plane', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"type":"run"}\nnot json\n');
    const unreadable = await history(['--check', bad]);
    expect([unreadable.code, unreadable.stderr.trim()]).toEqual([
      2,
      `topics-conformance history: --check ${bad}, line 2: not JSON`,
    ]);
    const live = await history([...against('http://127.0.0.1:1'), '--page-changes', '1', '--duration', '1']);
    expect(live.code).toBe(2);
    expect(live.stderr).toContain("--page-changes needs an emulator's control plane");
    const notUrl = await history(['--base-url', 'notaurl', '--token', 't', '--cache', 'c']);
    expect([notUrl.code, notUrl.stderr.trim()]).toEqual([
      2,
      'topics-conformance history: --base-url "notaurl" is not an http:// or https:// URL',
    ]);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await history([...against(`http://127.0.0.1:${port}`), '--duration', '1', '--drain', '0']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('no publish was acknowledged (the first got ECONNREFUSED)');
    const flags = await history(['--publishers', '0']);
    expect(flags.code).toBe(2);
    expect(flags.stderr).toContain('--publishers must be from 1 to 64');
  });
});
