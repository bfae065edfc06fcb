import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { runCli } from '../helpers/cli.js';

// --https-port: clients that take their base URL from a portable token as
// `https://api.cache.<endpoint>` and have no override (modelled on momentohq/momento-unity-demo's
// HttpTopicClient and allenheltondev/momento-a2a-agent's client) reach the emulator unchanged,
// once the machine trusts its local authority and resolves api.cache.localhost to loopback.

const dirs: string[] = [];
const tlsDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'topics-tls-'));
  dirs.push(dir);
  return dir;
};
const running: RunningEmulator[] = [];
const start = async (settings: Parameters<typeof startEmulator>[0]) => {
  const emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', ...settings });
  running.push(emulator);
  return emulator;
};
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** What a hosts line (`127.0.0.1 api.cache.localhost`) does for Node: every name is loopback. */
const loopback: LookupFunction = (_host, options, done) =>
  options.all
    ? (done as (error: null, addresses: LookupAddress[]) => void)(null, [{ address: '127.0.0.1', family: 4 }])
    : done(null, '127.0.0.1', 4);

/** A client as the public ones are: its base URL from the token's endpoint, nothing to configure. */
function portableTokenClient(token: string, dispatcher: Agent) {
  const { endpoint } = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { endpoint: string };
  const base = `https://api.cache.${endpoint}`;
  const headers = { authorization: token };
  return {
    base,
    publish: (cache: string, topic: string, text: string) =>
      fetch(`${base}/topics/${cache}/${topic}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/plain' },
        body: text,
        dispatcher,
      }),
    subscribe: (cache: string, topic: string) => fetch(`${base}/topics/${cache}/${topic}`, { headers, dispatcher }),
  };
}

describe('--https-port with the local authority', () => {
  let emulator: RunningEmulator;
  let dir: string;
  beforeAll(async () => {
    dir = tlsDir();
    emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', httpsPort: 0, tlsDir: dir });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("serves a client that builds https://api.cache.<endpoint> from its token, trusting only the authority's certificate", async () => {
    const ca = await (await fetch(`${emulator.url}/_emulator/tls/ca.pem`)).text();
    expect(ca).toBe(readFileSync(join(dir, 'ca.pem'), 'utf8'));
    const { token } = await emulator.issueToken({
      permissions: [{ role: 'publishsubscribe', cache: 'default-cache', topic: '*' }],
    });
    const client = portableTokenClient(token, new Agent({ connect: { ca, lookup: loopback } }));
    expect(client.base).toBe(`https://api.cache.localhost:${new URL(emulator.httpsUrl!).port}`);
    const waiting = client.subscribe('default-cache', 'over-tls');
    expect((await client.publish('default-cache', 'over-tls', 'hello')).status).toBe(204);
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ items: [{ item: { value: { text: 'hello' } } }] });
    // One emulator behind both ports: the plain port's journal has the TLS requests.
    const journal = await emulator.requests({ topic: 'over-tls' });
    expect(journal.entries.map((e) => e.operation).sort()).toEqual(['publish', 'subscribe']);
  });

  it('serves the cache HTTP API as a public client calls it: fetch with a string body and the token in the query', async () => {
    const ca = await (await fetch(`${emulator.url}/_emulator/tls/ca.pem`)).text();
    const { token } = await emulator.issueToken({ permissions: [{ role: 'readwrite', cache: 'default-cache' }] });
    const { endpoint } = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { endpoint: string };
    const dispatcher = new Agent({ connect: { ca, lookup: loopback } });
    const item = `https://api.cache.${endpoint}/cache/default-cache?key=reactions&token=${encodeURIComponent(token)}`;
    const put = await fetch(`${item}&ttl_seconds=30`, { method: 'PUT', body: '{"likes":3}', dispatcher });
    expect(put.status).toBe(204);
    const get = await fetch(item, { dispatcher });
    expect([get.status, await get.text()]).toEqual([200, '{"likes":3}']);
    expect((await fetch(item, { method: 'DELETE', dispatcher })).status).toBe(204);
    expect((await fetch(item, { dispatcher })).status).toBe(404);
  });

  it('names localhost, *.localhost, api.cache.localhost and the loopback addresses, and is signed by the authority', async () => {
    const secure = tlsConnect({
      port: Number(new URL(emulator.httpsUrl!).port),
      host: '127.0.0.1',
      servername: 'api.cache.localhost',
      ca: emulator.tlsAuthority,
    });
    await once(secure, 'secureConnect');
    const cert = new X509Certificate(secure.getPeerX509Certificate()!.raw);
    // Connected for servername api.cache.localhost with only the authority trusted: Node checked the name.
    expect(secure.authorized).toBe(true);
    secure.destroy();
    expect(cert.subjectAltName).toContain('DNS:localhost');
    expect(cert.subjectAltName).toContain('DNS:*.localhost');
    expect(cert.subjectAltName).toContain('DNS:api.cache.localhost');
    expect(cert.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(cert.verify(new X509Certificate(emulator.tlsAuthority!).publicKey)).toBe(true);
  });

  it('is not trusted without the authority: the handshake fails and nothing is served', async () => {
    const untrusted = new Agent({ connect: { lookup: loopback } });
    await expect(fetch(`${emulator.httpsUrl}/_emulator/health`, { dispatcher: untrusted })).rejects.toMatchObject({
      cause: { code: expect.stringMatching(/SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/) },
    });
  });

  it('keeps its authority: the key readable by its owner only, the same certificate at the next start', async () => {
    expect(statSync(join(dir, 'ca-key.pem')).mode & 0o777).toBe(0o600);
    const again = await start({ httpsPort: 0, tlsDir: dir });
    expect(again.tlsAuthority).toBe(emulator.tlsAuthority);
    expect(readFileSync(join(dir, 'localhost.pem'), 'utf8')).toContain('BEGIN CERTIFICATE');
  });

  it('is trusted by a Node process given NODE_EXTRA_CA_CERTS, as the README says', async () => {
    const port = new URL(emulator.httpsUrl!).port;
    const child = spawn(
      process.execPath,
      [
        '-e',
        `fetch('https://localhost:${port}/_emulator/health').then(async (r) => console.log(r.status, (await r.json()).status), (e) => console.log('failed', e.cause?.code))`,
      ],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') } },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    await once(child, 'close'); // after its output is read, not only after it exited
    expect(out.trim()).toBe('200 ok');
  });
});

describe('--https-port with --endpoint and with your own certificate', () => {
  it('names api.cache.<host of --endpoint> and writes --endpoint into the tokens', async () => {
    const emulator = await start({ httpsPort: 0, tlsDir: tlsDir(), endpoint: 'dev.example:4547' });
    const cert = new X509Certificate(readFileSync(join(emulator.settings.tlsDir!, 'localhost.pem')));
    expect(cert.subjectAltName).toContain('DNS:api.cache.dev.example');
    const { token } = await emulator.issueToken({
      permissions: [{ role: 'subscribeonly', cache: 'default-cache', topic: '*' }],
    });
    expect(JSON.parse(Buffer.from(token, 'base64').toString()).endpoint).toBe('dev.example:4547');
  });

  it('serves --tls-cert and --tls-key, and then has no authority to hand out (404)', async () => {
    const first = await start({ httpsPort: 0, tlsDir: tlsDir() });
    const dir = first.settings.tlsDir!;
    const own = await start({
      httpsPort: 0,
      tlsCert: join(dir, 'localhost.pem'),
      tlsKey: join(dir, 'localhost-key.pem'),
    });
    expect(own.tlsAuthority).toBeUndefined();
    const agent = new Agent({ connect: { ca: first.tlsAuthority, lookup: loopback } });
    expect((await fetch(`${own.httpsUrl}/_emulator/health`, { dispatcher: agent })).status).toBe(200);
    const missing = await fetch(`${own.url}/_emulator/tls/ca.pem`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      code: 'route_not_found',
      message: expect.stringMatching(/--https-port/),
    });
  });

  it('says what is wrong with TLS settings, before serving anything', async () => {
    const dir = tlsDir();
    writeFileSync(join(dir, 'not-a-cert.pem'), 'hello');
    await expect(start({ httpsPort: 0, tlsCert: join(dir, 'c.pem') })).rejects.toThrow(
      /tlsCert and tlsKey go together/,
    );
    await expect(
      start({ httpsPort: 0, tlsCert: join(dir, 'missing.pem'), tlsKey: join(dir, 'missing.pem') }),
    ).rejects.toThrow(/Cannot read the TLS certificate .*missing\.pem: ENOENT/);
    await expect(
      start({ httpsPort: 0, tlsCert: join(dir, 'not-a-cert.pem'), tlsKey: join(dir, 'not-a-cert.pem') }),
    ).rejects.toThrow(/Cannot serve HTTPS/);
    const run = runCli([
      '--port',
      '0',
      '--https-port',
      '0',
      '--tls-cert',
      join(dir, 'missing.pem'),
      '--tls-key',
      join(dir, 'missing.pem'),
    ]);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toMatch(/Cannot read the TLS certificate/);
  });

  it('the token command writes the HTTPS endpoint, as the server does', async () => {
    const run = runCli(['token', '--https-port', '4547', '--cache', 'default-cache', '--role', 'subscribeonly']);
    expect(await run.exited).toBe(0);
    const token = run.stdout().trim();
    expect(JSON.parse(Buffer.from(token, 'base64').toString()).endpoint).toBe('localhost:4547');
  });

  it('answers 404 for the authority while the HTTPS port is off', async () => {
    const plain = await start({});
    const response = await fetch(`${plain.url}/_emulator/tls/ca.pem`);
    expect(response.status).toBe(404);
    expect(plain.httpsUrl).toBeUndefined();
  });
});
