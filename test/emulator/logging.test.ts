import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prettyLine, redactUrl } from '../../emulator/logging.js';
import { baseUrlOf, cliCommand, printed, runCli, type CliRun } from '../helpers/cli.js';

let run: CliRun | undefined;
afterEach(async () => {
  if (run && run.child.exitCode === null) run.child.kill('SIGKILL');
  await run?.exited;
});

describe('credentials never reach a log line', () => {
  it('masks the token query parameter wherever it stands', () => {
    expect(redactUrl('/topics/c/t?token=abc&sequence_number=1')).toBe('/topics/c/t?token=[redacted]&sequence_number=1');
    expect(redactUrl('/topics/c/t?sequence_number=1&TOKEN=abc')).toBe('/topics/c/t?sequence_number=1&TOKEN=[redacted]');
    expect(redactUrl('/x?a=1&token=')).toBe('/x?a=1&token=[redacted]');
  });

  it('a run at trace level that used keys and tokens everywhere logs none of them', async () => {
    const key = 'secret-key-AAAA-1111';
    const signingKey = 'secret-signing-key-BBBB-2222';
    run = runCli(['--port', '0', '--log-level', 'trace', '--api-key', key, '--signing-key', signingKey]);
    const url = await baseUrlOf(run);
    const topic = `${url}/topics/default-cache/logged`;
    const post = (headers: Record<string, string>, path = topic) =>
      fetch(path, { method: 'POST', headers: { 'content-type': 'text/plain', ...headers }, body: 'm' });
    expect((await post({ authorization: key })).status).toBe(204);
    expect((await post({}, `${topic}?token=${key}`)).status).toBe(204);
    expect((await post({ authorization: 'wrong-token-CCCC-3333' })).status).toBe(401);
    expect((await post({ authorization: key }, `${topic}?token=${key}`)).status).toBe(400);
    expect((await fetch(`${topic}?sequence_number=1&token=${key}`)).status).toBe(200);
    expect((await fetch(`${url}/nowhere?token=${key}`)).status).toBe(404);
    expect((await fetch(`${topic}?sequence_number=x&token=${key}`)).status).toBe(400);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const logs = run.stdout() + run.stderr();
    expect(logs).toContain('"level"'); // it did log, at trace level
    expect(logs).toContain('[redacted]');
    for (const secret of [key, signingKey, 'wrong-token-CCCC-3333']) expect(logs).not.toContain(secret);
  });
});

describe('log levels', () => {
  const publish = (url: string) =>
    fetch(`${url}/topics/default-cache/levels`, {
      method: 'POST',
      headers: { authorization: 'topics-emulator-dev-key', 'content-type': 'text/plain' },
      body: 'm',
    });
  const linesOf = (output: string) =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; reqId?: string; url?: string; status?: number });

  it('at info, logs what the emulator does (a fault rule added) and no line per request', async () => {
    run = runCli(['--port', '0', '--log-level', 'info']);
    const url = await baseUrlOf(run);
    for (let i = 0; i < 3; i++) expect((await publish(url)).status).toBe(204);
    const rule = await fetch(`${url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'publish', status: 503, count: 1 }),
    });
    expect(rule.status).toBe(201);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const lines = linesOf(run.stdout());
    expect(lines.some((line) => /^fault rule \S+ added$/.test(line.msg))).toBe(true);
    expect(lines.filter((line) => line.msg === 'request')).toEqual([]);
  });

  it('at debug, logs one line per response, with its request id, status and redacted URL', async () => {
    run = runCli(['--port', '0', '--log-level', 'debug']);
    const url = await baseUrlOf(run);
    for (let i = 0; i < 3; i++) expect((await publish(url)).status).toBe(204);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const requests = linesOf(run.stdout()).filter((line) => line.msg === 'request');
    expect(requests.map((line) => [line.url, line.status])).toEqual(
      Array(3).fill(['/topics/default-cache/levels', 204]),
    );
    expect(new Set(requests.map((line) => line.reqId)).size).toBe(3);
  });
});

describe('log format', () => {
  it('prints a line a person reads: time, level, message, then the fields (no pid or host)', () => {
    const line = prettyLine(
      JSON.stringify({
        level: 40,
        time: Date.UTC(2026, 0, 1, 9, 5, 7, 123),
        pid: 7,
        hostname: 'h',
        msg: 'm',
        fault: 'f1',
      }),
    );
    expect(line).toBe('09:05:07.123 WARN  m  fault=f1\n');
    expect(prettyLine('not json')).toBe('not json');
  });

  it('--log-format pretty logs lines, redacted as JSON lines are; output that is not a terminal gets JSON', async () => {
    const key = 'secret-key-DDDD-4444';
    run = runCli(['--port', '0', '--log-format', 'pretty', '--log-level', 'debug', '--api-key', key]);
    const url = await baseUrlOf(run);
    expect(
      (
        await fetch(`${url}/topics/default-cache/pretty?token=${key}`, {
          method: 'POST',
          body: 'm',
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(204);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const lines = run.stdout().split('\n');
    expect(
      lines.some((line) =>
        /^\d\d:\d\d:\d\d\.\d{3} INFO {2}stopping: answering waiting subscribers {2}signal=SIGTERM$/.test(line),
      ),
    ).toBe(true);
    expect(lines.some((line) => line.startsWith('{'))).toBe(false);
    expect(run.stdout()).not.toContain(key);
  });

  // util-linux's `script` runs the CLI in a pseudo-terminal, as a person's shell does.
  it.runIf(process.platform === 'linux')(
    '--log-format auto (the default): readable lines in a terminal, JSON lines when piped',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'log-format-'));
      const scenario = join(dir, 'one-rule.yaml');
      writeFileSync(scenario, 'faults:\n  - { operation: publish, count: 1, status: 429 }\n');
      const args = ['--port', '0', '--grpc-port', '0', '--scenario', scenario];
      const added = /fault rule f1 added/;
      try {
        const quoted = [...cliCommand, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
        const child = spawn('script', ['-qec', quoted, '/dev/null'], { cwd: process.cwd() });
        let out = '';
        child.stdout.on('data', (chunk) => (out += chunk));
        child.stderr.on('data', (chunk) => (out += chunk));
        const exited = once(child, 'close').then(([code]) => code as number | null);
        const inTerminal: CliRun = { child, stdout: () => out, stderr: () => '', exited };
        await printed(inTerminal, added);
        child.kill('SIGTERM');
        await exited;
        const terminalLines = out.split(/\r?\n/);
        expect(
          terminalLines.some((line) => /^\d\d:\d\d:\d\d\.\d{3} INFO {2}fault rule f1 added {2}fault=f1/.test(line)),
        ).toBe(true);
        expect(terminalLines.some((line) => line.startsWith('{'))).toBe(false);

        run = runCli(args);
        await printed(run, added);
        const json = run
          .stdout()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as { msg?: string; fault?: string });
        expect(json.some((entry) => entry.msg === 'fault rule f1 added' && entry.fault === 'f1')).toBe(true);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
