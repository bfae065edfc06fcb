import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';

// The cache HTTP API (Get Value, Set Value, Delete Value) as public clients call it: fetch with a
// string body and the token in the query, curl's form body, the provider's own integration cases
// (Content-Type: application/json, the value repeated in the query), and binary keys.

let emulator: RunningEmulator;
let base: string;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
  base = `${emulator.url}/cache/default-cache`;
});
afterAll(async () => {
  await emulator?.close();
});

const auth = () => ({ authorization: emulator.apiKey });
const bodyOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe('the cache HTTP API', () => {
  it('sets with a string body and the token in the query, gets the exact bytes back, deletes', async () => {
    const token = encodeURIComponent(emulator.apiKey);
    const put = await fetch(`${base}?key=greeting&token=${token}&ttl_seconds=30`, { method: 'PUT', body: 'héllo' });
    expect(put.status).toBe(204);
    const get = await fetch(`${base}?key=greeting&token=${token}`);
    expect([get.status, get.headers.get('content-type')]).toEqual([200, 'application/octet-stream']);
    expect((await bodyOf(get)).toString('utf8')).toBe('héllo');
    expect((await fetch(`${base}?key=greeting&token=${token}`, { method: 'DELETE' })).status).toBe(204);
    const miss = await fetch(`${base}?key=greeting&token=${token}`);
    expect(miss.status).toBe(404);
    expect(await miss.json()).toMatchObject({ code: 'key_not_found', message: expect.stringMatching(/Key Not Found/) });
  });

  it('stores the body whatever its Content-Type, ignoring a value repeated in the query', async () => {
    for (const type of [
      'application/json',
      'application/x-www-form-urlencoded',
      'text/plain;charset=UTF-8',
      'image/png',
    ]) {
      const put = await fetch(`${base}?key=typed&ttl_seconds=30&value=ignored`, {
        method: 'PUT',
        headers: { ...auth(), 'content-type': type },
        body: '{"n":1}',
      });
      expect(put.status).toBe(204);
      expect((await bodyOf(await fetch(`${base}?key=typed`, { headers: auth() }))).toString()).toBe('{"n":1}');
    }
  });

  it('takes a binary key as key_base64 (base64url), the same item as the text key of the same bytes', async () => {
    const bytes = Buffer.from([0xff, 0x00, 0xfe, 0x41]);
    const put = await fetch(`${base}?key_base64=${bytes.toString('base64url')}&ttl_seconds=30`, {
      method: 'PUT',
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      body: Buffer.from([1, 2, 3]),
    });
    expect(put.status).toBe(204);
    const get = await fetch(`${base}?key_base64=${bytes.toString('base64url')}`, { headers: auth() });
    expect([...(await bodyOf(get))]).toEqual([1, 2, 3]);
    await fetch(`${base}?key=plain&ttl_seconds=30`, { method: 'PUT', headers: auth(), body: 'x' });
    const same = await fetch(`${base}?key_base64=${Buffer.from('plain').toString('base64url')}`, { headers: auth() });
    expect((await bodyOf(same)).toString()).toBe('x');
  });

  it('answers 404 cache_not_found ("Cache Not Found") on a cache that does not exist, for every method', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await fetch(`${emulator.url}/cache/no-such-cache?key=k&ttl_seconds=30`, {
        method,
        headers: auth(),
        ...(method === 'PUT' ? { body: 'x' } : {}),
      });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        code: 'cache_not_found',
        message: expect.stringMatching(/Cache Not Found/),
      });
    }
  });

  it('answers the undocumented /cache/{cache}/{key} form 404, pointing to the key as a query parameter', async () => {
    const response = await fetch(`${base}/greeting`, { headers: auth() });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      code: 'route_not_found',
      message: expect.stringMatching(/takes the key as a query parameter: \/cache\/\{cacheName\}\?key=/),
    });
  });

  it('deletes an absent key with 204', async () => {
    expect((await fetch(`${base}?key=never-set`, { method: 'DELETE', headers: auth() })).status).toBe(204);
  });

  it.each([
    ['no key', '?ttl_seconds=30', 'invalid_parameter'],
    ['key and key_base64 together', '?key=a&key_base64=YQ&ttl_seconds=30', 'invalid_parameter'],
    ['no ttl_seconds', '?key=a', 'invalid_parameter'],
    ['a ttl_seconds that is not an integer', '?key=a&ttl_seconds=1.5', 'invalid_parameter'],
    ['a ttl_seconds of 0', '?key=a&ttl_seconds=0', 'invalid_parameter'],
    ['a ttl_seconds past a year', '?key=a&ttl_seconds=31536001', 'invalid_parameter'],
  ])('answers a PUT with %s 400', async (_what, query, code) => {
    const response = await fetch(`${base}${query}`, { method: 'PUT', headers: auth(), body: 'x' });
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe(code);
  });

  it('keeps the token rules of the topics: none 401, both places 400', async () => {
    expect((await fetch(`${base}?key=a`)).status).toBe(401);
    const both = await fetch(`${base}?key=a&token=${encodeURIComponent(emulator.apiKey)}`, { headers: auth() });
    expect(both.status).toBe(400);
  });

  it('refuses a value past 5 MiB with 413, and keeps what was there', async () => {
    await fetch(`${base}?key=big&ttl_seconds=30`, { method: 'PUT', headers: auth(), body: 'small' });
    const response = await fetch(`${base}?key=big&ttl_seconds=30`, {
      method: 'PUT',
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(5 * 1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
    expect((await bodyOf(await fetch(`${base}?key=big`, { headers: auth() }))).toString()).toBe('small');
  });

  it('expires an item on the emulator clock', async () => {
    emulator.setClock({ mode: 'virtual' });
    try {
      await fetch(`${base}?key=short&ttl_seconds=2`, { method: 'PUT', headers: auth(), body: 'x' });
      emulator.advanceClock(1999);
      expect((await fetch(`${base}?key=short`, { headers: auth() })).status).toBe(200);
      emulator.advanceClock(1);
      expect((await fetch(`${base}?key=short`, { headers: auth() })).status).toBe(404);
    } finally {
      emulator.setClock({ mode: 'real' });
    }
  });

  it('grants a token with a cache role on its key prefix only, and a topic role nothing', async () => {
    const { token: reader } = await emulator.issueToken({
      permissions: [{ role: 'readonly', cache: 'default-cache', keyPrefix: 'pub-' }],
    });
    const { token: topicsOnly } = await emulator.issueToken({
      permissions: [{ role: 'publishsubscribe', cache: '*', topic: '*' }],
    });
    await fetch(`${base}?key=pub-1&ttl_seconds=30`, { method: 'PUT', headers: auth(), body: 'x' });
    const as = (token: string) => ({ authorization: token });
    expect((await fetch(`${base}?key=pub-1`, { headers: as(reader) })).status).toBe(200);
    expect((await fetch(`${base}?key=secret`, { headers: as(reader) })).status).toBe(403);
    expect(
      (await fetch(`${base}?key=pub-1&ttl_seconds=30`, { method: 'PUT', headers: as(reader), body: 'y' })).status,
    ).toBe(403);
    expect((await fetch(`${base}?key=pub-1`, { headers: as(topicsOnly) })).status).toBe(403);
  });

  it('refuses a token request that scopes a cache role to a topic, or a topic role to a key', async () => {
    for (const permission of [
      { role: 'readonly', cache: 'default-cache', topic: 'x' },
      { role: 'publishonly', cache: 'default-cache', keyPrefix: 'p-' },
    ]) {
      const response = await fetch(`${emulator.url}/_emulator/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ permissions: [permission] }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: 'invalid_body',
        message: expect.stringMatching(/go with a/),
      });
    }
  });

  it('counts a call as one operation of the account limits, and answers 429 past them', async () => {
    emulator.setLimits({ enabled: true, operationsPerSecond: 2 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await fetch(`${base}?key=limited`, { headers: auth() })).status);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    } finally {
      emulator.reset();
    }
  });

  it('round-trips through a snapshot: every item, binary bytes intact, with the TTL it had left', async () => {
    emulator.setClock({ mode: 'virtual' });
    try {
      await fetch(`${base}?key=kept&ttl_seconds=100`, {
        method: 'PUT',
        headers: auth(),
        body: Buffer.from([0, 255, 7]),
      });
      emulator.advanceClock(40_000);
      const snapshot = emulator.snapshot();
      expect(snapshot.items).toEqual([
        { cache: 'default-cache', key: Buffer.from('kept').toString('base64'), value: 'AP8H', ttlRemainingMs: 60_000 },
      ]);
      emulator.reset();
      emulator.setClock({ mode: 'virtual' });
      expect(emulator.restore(snapshot).items).toBe(1);
      expect([...(await bodyOf(await fetch(`${base}?key=kept`, { headers: auth() })))]).toEqual([0, 255, 7]);
      emulator.advanceClock(60_000);
      expect((await fetch(`${base}?key=kept`, { headers: auth() })).status).toBe(404);
    } finally {
      emulator.reset();
    }
  });

  it('refuses a snapshot whose item names a cache that is not configured, and loads nothing', async () => {
    await fetch(`${base}?key=before&ttl_seconds=100`, { method: 'PUT', headers: auth(), body: 'x' });
    const snapshot = emulator.snapshot();
    const broken = { ...snapshot, items: [{ cache: 'nowhere', key: 'aw==', value: '', ttlRemainingMs: 1000 }] };
    expect(() => emulator.restore(broken)).toThrow(/body\.items\.0\.cache 'nowhere' is not a configured cache/);
    expect((await fetch(`${base}?key=before`, { headers: auth() })).status).toBe(200);
  });

  it('is cleared by a reset', async () => {
    await fetch(`${base}?key=kept&ttl_seconds=30`, { method: 'PUT', headers: auth(), body: 'x' });
    emulator.reset();
    expect((await fetch(`${base}?key=kept`, { headers: auth() })).status).toBe(404);
  });
});
