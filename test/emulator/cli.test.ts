import { spawnSync } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo } from 'node:net';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { baseUrlOf, printed, runCli, type CliRun } from '../helpers/cli.js';

const running: CliRun[] = [];
function start(args: string[], env: Record<string, string> = {}, nodeFlags: string[] = []): CliRun {
  const run = runCli(args, env, nodeFlags);
  running.push(run);
  return run;
}
afterEach(async () => {
  for (const run of running.splice(0)) {
    if (run.child.exitCode === null) run.child.kill('SIGKILL');
    await run.exited;
  }
});

const KEY = 'topics-emulator-dev-key';

describe('npx topics-emulator', () => {
  it("the banner's curl lines quote a configured key's $TOPICS_API_KEY so that a shell expands it when pasted", async () => {
    const run = start(['--port', '0', '--api-key', 'my-own-key-123']);
    await baseUrlOf(run);
    const banner = run.stdout();
    expect(banner).not.toContain('my-own-key-123');
    for (const label of ['Subscribe', 'Publish', 'Replay']) {
      const line = new RegExp(`${label}:\\s+(curl .*)`).exec(banner)![1]!;
      const header = /-H ("[^"]*"|'[^']*')/.exec(line)![1]!;
      // The header argument as bash reads it when the line is pasted, with the variable set.
      const pasted = spawnSync('bash', ['-c', `printf %s ${header}`], {
        env: { ...process.env, TOPICS_API_KEY: 'my-own-key-123' },
        encoding: 'utf8',
      });
      expect(pasted.stdout, label).toBe('Authorization: my-own-key-123');
    }
  });

  it('prints the base URL, caches, dev key and curl lines that work when pasted', async () => {
    const run = start(['--port', '0']);
    const url = await baseUrlOf(run);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const banner = run.stdout();
    expect(banner).toContain('Caches:    default-cache');
    expect(banner).toContain(KEY);
    // The dashboard's URL (served from dist/dashboard/, which npm ci builds).
    const dashboard = /Dashboard: (http:\/\/\S+)/.exec(banner)![1]!;
    expect(dashboard).toBe(`${url}/_emulator/ui`);
    const page = await fetch(dashboard);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(await page.text()).toContain('/_emulator/ui/dashboard.js');
    // The printed curl lines, as a user would paste them.
    const publishLine = /Publish:\s+(curl .*)/.exec(banner)![1]!;
    expect(publishLine).toContain(`-H "Authorization: ${KEY}"`);
    const target = /(http:\/\/\S+)$/.exec(publishLine)![1]!;
    // The Subscribe line waits for the next message: the Publish line answers it.
    const subscribeTarget = /Subscribe:.*'(http:\/\/[^']+)'/.exec(banner)![1]!;
    const subscribed = fetch(subscribeTarget, { headers: { authorization: KEY } });
    await vi.waitFor(
      async () => {
        const state = (await (await fetch(`${url}/_emulator/state`)).json()) as { waitingSubscribers: unknown[] };
        expect(state.waitingSubscribers).toHaveLength(1);
      },
      { timeout: 5000, interval: 20 },
    );
    expect(
      (
        await fetch(target, {
          method: 'POST',
          headers: { authorization: KEY, 'content-type': 'text/plain' },
          body: 'hello',
        })
      ).status,
    ).toBe(204);
    const body = await (await subscribed).json();
    expect(body.items[0].item.value).toEqual({ text: 'hello' });
    // The Replay line reads the topic from its start.
    const replayTarget = /Replay:.*'(http:\/\/[^']+)'/.exec(banner)![1]!;
    const replayed = await (await fetch(replayTarget, { headers: { authorization: KEY } })).json();
    expect(replayed.items.map((e: any) => e.item.value)).toEqual([{ text: 'hello' }]);
  });

  it('takes flags, environment variables and a YAML config file, flags winning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'topics-emulator-'));
    const config = join(dir, 'emulator.yaml');
    writeFileSync(config, 'caches: [from-file]\npayloadLimitBytes: 10\napiKeys: [file-key-123456]\n');
    const run = start(['--port', '0', '--config', config, '--api-key', 'flag-key-123456'], {
      TOPICS_EMULATOR_CACHES: 'env-a,env-b',
    });
    const url = await baseUrlOf(run);
    expect(run.stdout()).toContain('Caches:    env-a, env-b');
    expect(run.stdout()).not.toContain('flag-key-123456'); // a configured key is not printed
    const publish = (cache: string, body: string, key = 'flag-key-123456') =>
      fetch(`${url}/topics/${cache}/t`, {
        method: 'POST',
        headers: { authorization: key, 'content-type': 'text/plain' },
        body,
      });
    expect((await publish('env-b', 'short')).status).toBe(204);
    expect((await publish('from-file', 'short')).status).toBe(404);
    expect((await publish('env-a', 'longer than ten')).status).toBe(413);
    expect((await publish('env-a', 'short', 'file-key-123456')).status).toBe(401);
  });

  it('--request-timeout reaches the server: a request still arriving after it gets 408 request_timeout', async () => {
    const run = start(['--port', '0', '--request-timeout', '300']);
    const url = new URL(await baseUrlOf(run));
    const socket = connect(Number(url.port), url.hostname);
    let answer = '';
    socket.on('data', (chunk) => (answer += String(chunk)));
    const closed = once(socket, 'close');
    // Headers promise 10 bytes of body; 2 arrive.
    socket.write(
      'POST /topics/default-cache/t HTTP/1.1\r\nHost: localhost\r\nAuthorization: topics-emulator-dev-key\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\nab',
    );
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"code":"request_timeout"');
  });

  it('--allowed-host, --cors-origin and --control-cors-origin (flags and environment) reach the browser guard', async () => {
    // A subscribe on an empty topic waits: a short long-poll timeout answers it (200, no items).
    const run = start(
      [
        '--port',
        '0',
        '--long-poll-timeout',
        '50',
        '--allowed-host',
        'emulator.test',
        '--control-cors-origin',
        'https://tools.example',
      ],
      {
        TOPICS_EMULATOR_CORS_ORIGINS: 'https://app.example,https://other.example',
        TOPICS_EMULATOR_ALLOWED_HOSTS: 'ignored.test',
      },
    );
    const url = new URL(await baseUrlOf(run));
    const head = (host: string, origin: string, path: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(Number(url.port), url.hostname);
        let answer = '';
        socket.on('data', (chunk) => (answer += String(chunk)));
        socket.on('close', () => resolve(answer.split('\r\n')[0]!));
        socket.write(
          `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${origin}\r\nAuthorization: ${KEY}\r\nConnection: close\r\n\r\n`,
        );
      });
    expect(await head('emulator.test:1', 'https://tools.example', '/_emulator/state')).toMatch(/ 200 /);
    expect(await head('ignored.test', 'https://tools.example', '/_emulator/state')).toMatch(/ 403 /); // the flag wins over the environment
    expect(await head('localhost', 'https://other.example', '/_emulator/state')).toMatch(/ 403 /);
    expect(
      await head('localhost', 'https://other.example', '/topics/default-cache/t?sequence_number=1&sequence_page=1'),
    ).toMatch(/ 200 /);
  });

  it.each([
    [['--prot', '4545'], /^topics-emulator: unknown option '--prot' \(did you mean --port\?\)$/],
    [
      ['--port', 'abc'],
      /^topics-emulator: option '--port <port>' argument 'abc' is invalid\. --port must be a whole number\.$/,
    ],
    [['--log-level', 'verbose'], /^topics-emulator: .*'verbose' is invalid\. Allowed choices are fatal, error/],
    [
      ['exam', '--scenari', 'compact', '--', 'true'],
      /^topics-emulator: unknown option '--scenari' \(did you mean --scenario\?\)$/,
    ],
    // It said "too many arguments. Expected 0 arguments but got 1." with no suggestion.
    [['exma', '--', 'node', 'client.mjs'], /^topics-emulator: unknown command 'exma' \(did you mean exam\?\)$/],
    [['serve'], /^topics-emulator: unknown command 'serve' \(the commands are token and exam\)$/],
  ])(
    'a usage error is one line naming it, a pointer to --help, and exit 2: %j',
    { concurrent: true },
    async (args, line) => {
      const run = runCli(args);
      expect(await run.exited).toBe(2);
      const lines = run.stderr().trimEnd().split('\n');
      expect(lines[0]).toMatch(line);
      expect(lines.slice(1)).toEqual([expect.stringMatching(/^\((exam )?--help lists the options\)$/)]);
    },
  );

  it.each([
    [['--port', 'abc'], /--port must be a whole number/],
    [['--first-subscribe', 'sideways'], /first-subscribe/],
    [['--bogus'], /unknown option '--bogus'/],
    [['--retention', '0'], /retention must be >= 1/],
    [['--request-timeout', 'soon'], /--request-timeout/],
    [['--config', '/no/such/file.yaml'], /Cannot read config file/],
    [['--allowed-host', 'emulator:4545'], /allowedHosts.0 must be a host name without port/],
    [['--control-cors-origin', '*'], /admin key/],
  ])('exits non-zero with a clear message for %j', { concurrent: true }, async (args, message) => {
    const run = runCli(args); // it exits by itself: nothing to clean up
    expect(await run.exited).not.toBe(0);
    expect(run.stderr()).toMatch(message);
  });

  it('exits 2 with one line, no stack trace, when the store it names cannot be reached', async () => {
    const run = runCli(['--port', '0', '--store', 'redis://127.0.0.1:1']);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain(
      'Cannot reach the store at redis://127.0.0.1:1 (--store): connect ECONNREFUSED 127.0.0.1:1',
    );
    expect(run.stderr()).not.toMatch(/\n\s+at /);
  });

  it.each([
    ['--port', (port: number) => ['--port', String(port), '--grpc-port', '0'], 'cannot listen'],
    ['--grpc-port', (port: number) => ['--port', '0', '--grpc-port', String(port)], 'Cannot listen for gRPC'],
    [
      '--https-port',
      (port: number) => ['--port', '0', '--grpc-port', '0', '--https-port', String(port)],
      'Cannot serve HTTPS',
    ],
  ])('exits 2 with one line saying what to do when the port of %s is taken', async (flag, args, what) => {
    const holder = createServer();
    holder.listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const tlsDir = mkdtempSync(join(tmpdir(), 'port-taken-'));
    try {
      const { port } = holder.address() as AddressInfo;
      const run = runCli([...args(port), '--tls-dir', tlsDir]);
      expect(await run.exited).toBe(2);
      expect(run.stderr().trim().split('\n')).toHaveLength(1);
      expect(run.stderr()).toContain(`topics-emulator: ${what}`);
      expect(run.stderr()).toContain(`address already in use 127.0.0.1:${port}`);
      expect(run.stderr()).toContain(`choose another with ${flag} (0: any free port)`);
    } finally {
      holder.close();
      rmSync(tlsDir, { recursive: true, force: true });
    }
  });

  it('refuses a config file with an unknown setting, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'topics-emulator-'));
    const config = join(dir, 'bad.json');
    writeFileSync(config, '{"caches": ["a"], "retenton": 5}');
    const run = start(['--config', config]);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain("unknown setting 'retenton'");
  });

  it('prints its version and help', { concurrent: true }, async () => {
    const version = runCli(['--version']);
    expect(await version.exited).toBe(0);
    expect(version.stdout().trim()).toMatch(/^\d+\.\d+\.\d+/);
    const help = runCli(['--help']);
    expect(await help.exited).toBe(0);
    for (const flag of ['--host', '--port', '--cache', '--api-key', '--config', '--log-level'])
      expect(help.stdout()).toContain(flag);
    // The config file has its own heading, not Logging's.
    expect(help.stdout()).toMatch(/\nConfig file:\n {2}--config <file>/);
  });

  it("--help's conformance examples carry every flag the suite requires (--cache with --base-url)", async () => {
    const help = runCli(['--help']);
    expect(await help.exited).toBe(0);
    const examples = help
      .stdout()
      .split('\n')
      .filter((line) => line.includes('npx topics-conformance'));
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const line of examples) expect(line).toMatch(/--base-url \S+ --token \S+ --cache \S+/);
  });

  it("sets V8's inlining budget for its request path, unless Node was given one", async () => {
    const runs = [
      start(['--port', '0', '--log-level', 'debug']),
      start(['--port', '0', '--log-level', 'debug'], {}, ['--max-inlined-bytecode-size-cumulative=920']),
    ];
    const budgetLine = /V8's inlining budget[^"]*/;
    expect(await printed(runs[0]!, budgetLine)).toBe("V8's inlining budget set to 3680 bytes");
    expect(await printed(runs[1]!, budgetLine)).toBe("V8's inlining budget: left as Node has it");
  });

  it('on SIGTERM answers waiting long-polls and exits 0', async () => {
    const run = start(['--port', '0', '--log-level', 'debug']);
    const url = await baseUrlOf(run);
    const polls = Array.from({ length: 50 }, () =>
      fetch(`${url}/topics/default-cache/quiet`, { headers: { authorization: KEY } }).then((r) => r.json()),
    );
    const parked = () => run.stdout().split('subscriber waiting').length - 1;
    while (parked() < 50) await once(run.child.stdout, 'data');
    run.child.kill('SIGTERM');
    const bodies = await Promise.all(polls);
    for (const body of bodies) expect(body).toEqual({ items: [] });
    expect(await run.exited).toBe(0);
  });

  it('`token` prints a token the running emulator accepts, with the role it asked for', async () => {
    const server = start(['--port', '0', '--signing-key', 'shared-signing-key-1234']);
    const url = await baseUrlOf(server);
    const tokenRun = start([
      'token',
      '--cache',
      'default-cache',
      '--topic',
      'news',
      '--role',
      'subscribeonly',
      '--ttl',
      '10m',
      '--signing-key',
      'shared-signing-key-1234',
    ]);
    expect(await tokenRun.exited).toBe(0);
    const token = tokenRun.stdout().trim();
    expect(tokenRun.stderr()).toMatch(/expires at \d{4}-/);
    await fetch(`${url}/topics/default-cache/news`, {
      method: 'POST',
      headers: { authorization: KEY, 'content-type': 'text/plain' },
      body: 'n1',
    });
    expect(
      (await fetch(`${url}/topics/default-cache/news?sequence_number=1&token=${encodeURIComponent(token)}`)).status,
    ).toBe(200);
    expect(
      (
        await fetch(`${url}/topics/default-cache/news`, {
          method: 'POST',
          headers: { authorization: token, 'content-type': 'text/plain' },
          body: 'x',
        })
      ).status,
    ).toBe(403);
    expect(
      (await fetch(`${url}/topics/default-cache/other?sequence_number=1`, { headers: { authorization: token } }))
        .status,
    ).toBe(403);
  });

  it('`token` refuses a lifetime over 25 hours', async () => {
    const run = start(['token', '--ttl', '26h']);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toMatch(/25 hours/);
  });
});

describe('the build', () => {
  it('leaves every bin of a package executable (npx may run it in place)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'topics-emulator-bins-'));
    try {
      mkdirSync(join(dir, 'dist'));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ bin: { one: 'dist/one.js', two: 'dist/two.js' } }));
      for (const name of ['one', 'two']) {
        writeFileSync(join(dir, 'dist', `${name}.js`), '#!/usr/bin/env node\n');
        chmodSync(join(dir, 'dist', `${name}.js`), 0o644);
      }
      execFileSync(process.execPath, [
        fileURLToPath(new URL('../../scripts/executable-bins.mjs', import.meta.url)),
        dir,
      ]);
      for (const name of ['one', 'two']) expect(statSync(join(dir, 'dist', `${name}.js`)).mode & 0o777).toBe(0o755);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
