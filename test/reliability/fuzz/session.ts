import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, UnsecuredJWT } from 'jose';
import { baseUrlOf, runCli, type CliRun } from '../../helpers/cli.js';
import type { Secrets } from './cases.js';

// The emulator under fuzz: the CLI in a child process (a crash ends it, which the run would
// see), logging at debug level, with its own keys, a control plane behind an admin key, and
// seeded topics whose state must come through the run unchanged.

export const PAYLOAD_LIMIT = 4096;

export interface FuzzTarget {
  run: CliRun;
  url: string;
  port: number;
  adminKey: string;
  secrets: Secrets;
  /** Every credential the run may send: none may appear in the logs. */
  credentials: string[];
  /** Seeded topics: [cache, topic]. */
  seeded: [string, string][];
  admin(method: string, path: string, body?: unknown): Promise<Response>;
  /** The seeded topics as the control plane and a subscriber see them. */
  seededState(): Promise<unknown>;
  /** Resident memory of the emulator's process, from /proc (Linux), or undefined. */
  rss(): number | undefined;
}

export async function startFuzzTarget(): Promise<FuzzTarget> {
  const suffix = randomBytes(6).toString('hex');
  const apiKey = `fuzz-api-key-${suffix}`;
  const signingKey = `fuzz-signing-key-${suffix}`;
  const adminKey = `fuzz-admin-key-${suffix}`;
  const dir = mkdtempSync(join(tmpdir(), 'topics-emulator-fuzz-'));
  const config = join(dir, 'emulator.json');
  writeFileSync(
    config,
    JSON.stringify({
      apiKeys: [apiKey],
      signingKey,
      adminKey,
      caches: ['default-cache', 'other'],
      payloadLimitBytes: PAYLOAD_LIMIT,
      // Valid subscribes that wait are answered soon, so they do not hold the run's workers.
      longPollTimeoutMs: 100,
      maxWaitingSubscribers: 64,
      logLevel: 'debug',
    }),
  );
  const run = runCli(['--config', config, '--port', '0']);
  const url = await baseUrlOf(run);
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${url}/_emulator${path}`, {
      method,
      headers: {
        'x-emulator-admin-key': adminKey,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const issue = async (permissions: unknown[]) => {
    const response = await admin('POST', '/tokens', { permissions, ttlSeconds: 3600, tokenId: `fuzz-${suffix}` });
    if (response.status !== 201) throw new Error(`cannot issue a token: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { token: string }).token;
  };
  const token = await issue([{ role: 'publishsubscribe', cache: '*' }]);
  const narrowToken = await issue([{ role: 'subscribeonly', cache: 'default-cache', topic: 'f1' }]);
  const jwt = (JSON.parse(Buffer.from(token, 'base64').toString()) as { api_key: string }).api_key;
  const key = new TextEncoder().encode(signingKey);
  const now = Math.floor(Date.now() / 1000);
  const claims = { perms: [{ role: 'publishsubscribe', cache: '*' }] };
  const forged = [
    await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS512' })
      .setIssuer('topics-emulator')
      .setExpirationTime(now + 600)
      .sign(key),
    await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('topics-emulator')
      .setExpirationTime(now - 600)
      .sign(key),
    new UnsecuredJWT(claims)
      .setIssuer('topics-emulator')
      .setExpirationTime(now + 600)
      .encode(),
    `${jwt.slice(0, -3)}AAA`,
  ];

  const seeded: [string, string][] = [
    ['default-cache', `seeded-${suffix}`],
    ['other', `seeded-${suffix}`],
  ];
  for (const [cache, topic] of seeded) {
    for (const [body, type] of [
      ['first', 'text/plain'],
      [Buffer.from([0, 1, 2, 255]), 'application/octet-stream'],
      ['{"a":1}', 'application/json'],
    ] as const) {
      const response = await fetch(`${url}/topics/${cache}/${topic}`, {
        method: 'POST',
        headers: { authorization: apiKey, 'content-type': type },
        body,
      });
      if (response.status !== 204) throw new Error(`cannot seed ${cache}/${topic}: ${response.status}`);
    }
  }
  const seededState = async () => {
    const state = (await (await admin('GET', '/state')).json()) as { topics: { cache: string; topic: string }[] };
    const topics = state.topics.filter((t) => seeded.some(([c, n]) => c === t.cache && n === t.topic));
    const reads = await Promise.all(
      seeded.map(async ([cache, topic]) =>
        (
          await fetch(`${url}/topics/${cache}/${topic}?sequence_number=1`, { headers: { authorization: apiKey } })
        ).text(),
      ),
    );
    return { topics, reads };
  };
  const rss = () => {
    try {
      const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${run.child.pid}/status`, 'utf8'))?.[1];
      return kb === undefined ? undefined : Number(kb) * 1024;
    } catch {
      return undefined;
    }
  };
  return {
    run,
    url,
    port: Number(new URL(url).port),
    adminKey,
    secrets: { apiKey, tokens: [token, jwt, ...forged], narrowToken },
    credentials: [apiKey, signingKey, adminKey, token, jwt, narrowToken],
    seeded,
    admin,
    seededState,
    rss,
  };
}
