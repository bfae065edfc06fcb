// The topics-conformance command as a user runs it: exit codes, reports, config file and
// environment variables, rule listing.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { startBrokenServer, type BrokenServer } from '../../fixtures/broken/server.js';
import { conformanceCli } from './conformance-cli.js';

let emulator: RunningEmulator;
let broken: BrokenServer;
const dir = mkdtempSync(join(tmpdir(), 'conformance-cli-'));

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, logLevel: 'silent' });
  broken = await startBrokenServer({ upstream: emulator.url, violation: 'both-tokens-accepted' });
});

afterAll(async () => {
  await broken?.close();
  await emulator?.close();
});

const cli = conformanceCli;

describe.concurrent('topics-conformance CLI', () => {
  it('exits 1 on a failed rule, writes JUnit and JSON reports, and prints a curl command with $TOKEN', async () => {
    const junit = join(dir, 'report.xml');
    const json = join(dir, 'report.json');
    const { code, stdout } = await cli([
      '--base-url',
      broken.url,
      '--token',
      emulator.apiKey,
      '--cache',
      'default-cache',
      '--rules',
      'auth.both-400',
      '--report',
      `junit=${junit}`,
      '--report',
      `json=${json}`,
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAIL\s+documented\s+auth\.both-400/);
    expect(stdout).toContain(
      'Contract: §5 "When both are present, the response is 400 stating that only one value may be set."',
    );
    expect(stdout).toMatch(/curl -sS -i -X POST ".*token=\$TOKEN" -H "authorization: \$TOKEN"/);
    expect(readFileSync(junit, 'utf8')).toMatch(
      /<testcase classname="topics-conformance.auth" name="auth.both-400[^"]*"[^>]*>\s*<failure /,
    );
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      exitCode: number;
      rules: Array<{ id: string; status: string }>;
    };
    expect(report.exitCode).toBe(1);
    expect(report.rules.find((r) => r.id === 'auth.both-400')?.status).toBe('failed');
    expect(readFileSync(json, 'utf8')).not.toContain(emulator.apiKey);
  });

  it('exits 2 with a clear message for a usage error and for an endpoint it cannot reach', async () => {
    const missingToken = await cli(['--base-url', emulator.url, '--cache', 'default-cache']);
    expect(missingToken.code).toBe(2);
    expect(missingToken.stderr).toContain('--token is required');
    const refused = await cli(['--base-url', 'http://127.0.0.1:9', '--token', 't', '--cache', 'c']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('cannot reach http://127.0.0.1:9');
  });

  it('exits 0 when every rule passes; reads a config file and TOPICS_CONFORMANCE_* variables, flags winning', async () => {
    const config = join(dir, 'conformance.yaml');
    writeFileSync(
      config,
      `baseUrl: ${emulator.url}\ncache: no-such-cache\nrules: [auth.header-accepted, auth.both-400]\n`,
    );
    const { code, stdout, stderr } = await cli(['--config', config, '--cache', 'default-cache', '--seed', '3'], {
      TOPICS_CONFORMANCE_TOKEN: emulator.apiKey,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/pass\s+documented\s+auth\.header-accepted/);
    expect(stdout).toMatch(/seed 3, run [0-9a-f]{8}/);
    expect(stdout).toMatch(/2 passed, 0 failed, 0 warning\(s\), 0 observation\(s\), 0 skipped; \d+ requests/);
    expect(stdout).not.toContain(emulator.apiKey);
  });

  it('lists every rule with its level and contract sentence', async () => {
    const { code, stdout } = await cli(['--list-rules']);
    expect(code).toBe(0);
    const { catalogue } = await import('../../conformance/rules/index.js');
    for (const rule of catalogue) expect(stdout).toContain(rule.id);
    expect(stdout).toContain(`${catalogue.length} rules`);
  });
});
