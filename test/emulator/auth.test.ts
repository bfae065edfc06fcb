import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPortable } from '../../emulator/auth/tokens.js';
import { testEmulator, type TestEmulator } from '../helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator({
    caches: ['default-cache', 'other'],
    apiKeys: ['first-key-12345', 'second-key-12345'],
    signingKey: 'test-signing-key-0123456789',
  });
});
afterAll(() => t.close());

const C = 'default-cache';
const auth = (token: string) => ({ headers: { authorization: token } });
const viaQuery = (token: string) => ({ headers: {}, query: `token=${encodeURIComponent(token)}` });

/** Publishes and subscribes with the same credentials; the subscribe reads message 1, which the first publish made. */
async function both(init: { headers?: Record<string, string>; query?: string }, topic = 'auth-topic') {
  const publish = await t.publish(C, topic, 'x', {
    headers: init.headers ?? {},
    ...(init.query ? { query: init.query } : {}),
  });
  const subscribe = await t.subscribe(
    C,
    topic,
    { seq: 1 },
    { headers: init.headers ?? {}, ...(init.query ? { query: init.query } : {}) },
  );
  return [publish, subscribe];
}

describe('authentication, on both operations', () => {
  it('accepts every configured API key in the header or the query', async () => {
    for (const key of ['first-key-12345', 'second-key-12345']) {
      for (const init of [auth(key), viaQuery(key)]) {
        const [publish, subscribe] = await both(init);
        expect(publish!.status).toBe(204);
        expect(subscribe!.status).toBe(200);
      }
    }
  });

  it('answers 400 when the token is in both places', async () => {
    for (const reply of await both({ headers: { authorization: 'first-key-12345' }, query: 'token=first-key-12345' })) {
      expect(reply.status).toBe(400);
      expect(reply.json).toEqual({
        code: 'token_in_header_and_query',
        message: 'Only one of the Authorization header and the token query parameter may be set.',
      });
    }
  });

  it('answers 401 when the token is in neither place', async () => {
    for (const reply of await both({ headers: {} })) {
      expect(reply.status).toBe(401);
      expect(reply.json.code).toBe('missing_token');
    }
  });

  it('answers 401 for an unknown key, a malformed token, a Bearer prefix', async () => {
    for (const token of [
      'nope',
      'a.b.c',
      'e30=',
      'Bearer first-key-12345',
      Buffer.from('{"api_key":"x.y.z"}').toString('base64'),
    ]) {
      for (const reply of await both(auth(token))) {
        expect(reply.status, token).toBe(401);
        expect(reply.json.code).toBe('invalid_token');
      }
    }
    const [bearer] = await both(auth('Bearer first-key-12345'));
    expect(bearer!.json.message).toMatch(/without a 'Bearer ' prefix/);
  });

  it('refuses a repeated token query parameter', async () => {
    const reply = await t.subscribe(
      C,
      'x',
      { seq: 1 },
      { headers: {}, query: 'token=first-key-12345&token=first-key-12345' },
    );
    expect(reply.status).toBe(400);
  });
});

describe('signed tokens', () => {
  it('accepts a token the emulator signed, in the portable format and as a bare JWT', async () => {
    const { token } = await t.emulator.issueToken({
      permissions: [{ role: 'publishsubscribe', cache: '*' }],
      ttlSeconds: 60,
    });
    const decoded = JSON.parse(Buffer.from(token, 'base64').toString()) as { api_key: string; endpoint: string };
    // Clients build https://api.cache.<endpoint>: a host ending in a number would not parse.
    expect(decoded.endpoint).toBe(`localhost:${new URL(t.url).port}`);
    expect(new URL(`https://api.cache.${decoded.endpoint}`).host).toBe(`api.cache.localhost:${new URL(t.url).port}`);
    for (const credential of [token, decoded.api_key]) {
      for (const init of [auth(credential), viaQuery(credential)]) {
        const [publish, subscribe] = await both(init);
        expect(publish!.status).toBe(204);
        expect(subscribe!.status).toBe(200);
      }
    }
  });

  it('answers 401 expired_token once the clock passes the expiry, and not before', async () => {
    const local = await testEmulator();
    try {
      local.emulator.context.clock.freeze();
      const { token, expiresAt } = await local.emulator.issueToken({
        permissions: [{ role: 'publishsubscribe', cache: '*' }],
        ttlSeconds: 30,
      });
      expect(Date.parse(expiresAt)).toBe(Math.floor(local.emulator.context.clock.now() / 1000) * 1000 + 30_000);
      expect((await local.publish(C, 't', 'x', auth(token))).status).toBe(204);
      local.emulator.context.clock.advance(30_000);
      const reply = await local.publish(C, 't', 'x', auth(token));
      expect(reply.status).toBe(401);
      expect(reply.json.code).toBe('expired_token');
      expect((await local.subscribe(C, 't', { seq: 1 }, auth(token))).json.code).toBe('expired_token');
      // Back in time (within its validity), the same token is valid again: no verdict outlives the clock.
      local.emulator.context.clock.set(local.emulator.context.clock.now() - 10_000);
      expect((await local.publish(C, 't', 'x', auth(token))).status).toBe(204);
    } finally {
      await local.close();
    }
  });

  it('answers 401 for a token signed with another key, re-signed, tampered, or unsigned', async () => {
    const { token } = await t.emulator.issueToken({
      permissions: [{ role: 'publishsubscribe', cache: '*' }],
      ttlSeconds: 60,
    });
    const jwt = (JSON.parse(Buffer.from(token, 'base64').toString()) as { api_key: string }).api_key;
    const [header, payload, signature] = jwt.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const now = Math.floor(Date.now() / 1000);
    const forged = [
      await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode('some-other-key-0123456789')),
      await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS512' })
        .sign(new TextEncoder().encode('test-signing-key-0123456789')),
      `${header}.${Buffer.from(JSON.stringify({ ...claims, perms: [{ role: 'publishsubscribe', cache: 'other' }] })).toString('base64url')}.${signature}`,
      new UnsecuredJWT({ ...claims })
        .setIssuer('topics-emulator')
        .setExpirationTime(now + 60)
        .encode(),
      `${jwt.slice(0, -2)}AA`,
    ];
    for (const credential of forged) {
      for (const reply of await both(auth(toPortable(credential, 'x')))) {
        expect(reply.status).toBe(401);
        expect(reply.json.code).toBe('invalid_token');
      }
    }
  });

  it('answers 401 for a token that is not valid yet', async () => {
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({ perms: [{ role: 'publishsubscribe', cache: '*' }] })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('topics-emulator')
      .setNotBefore(now + 3600)
      .setExpirationTime(now + 7200)
      .sign(new TextEncoder().encode('test-signing-key-0123456789'));
    const reply = await t.publish(C, 't', 'x', auth(jwt));
    expect(reply.status).toBe(401);
    expect(reply.json.message).toMatch(/not valid yet/);
  });

  it('refuses to sign for more than 25 hours', async () => {
    await expect(
      t.emulator.issueToken({ permissions: [{ role: 'publishsubscribe', cache: '*' }], ttlSeconds: 25 * 3600 + 1 }),
    ).rejects.toThrow(/25 hours/);
  });
});

describe('permissions: 403 when the token lacks the access', () => {
  const cases: {
    name: string;
    permission: Record<string, string>;
    publish: [string, string][];
    subscribe: [string, string][];
    denied: [string, string, 'publish' | 'subscribe'][];
  }[] = [
    {
      name: 'subscribeonly',
      permission: { role: 'subscribeonly', cache: '*' },
      publish: [],
      subscribe: [
        [C, 'a'],
        ['other', 'b'],
      ],
      denied: [[C, 'a', 'publish']],
    },
    {
      name: 'publishonly',
      permission: { role: 'publishonly', cache: '*' },
      publish: [[C, 'a']],
      subscribe: [],
      denied: [[C, 'a', 'subscribe']],
    },
    {
      name: 'one cache',
      permission: { role: 'publishsubscribe', cache: 'other' },
      publish: [['other', 'a']],
      subscribe: [['other', 'a']],
      denied: [
        [C, 'a', 'publish'],
        [C, 'a', 'subscribe'],
        ['no-such-cache', 'a', 'publish'],
      ],
    },
    {
      name: 'one topic',
      permission: { role: 'publishsubscribe', cache: C, topic: 'only' },
      publish: [[C, 'only']],
      subscribe: [[C, 'only']],
      denied: [
        [C, 'only-not', 'publish'],
        [C, 'other', 'subscribe'],
        ['other', 'only', 'publish'],
      ],
    },
    {
      name: 'a topic prefix',
      permission: { role: 'publishsubscribe', cache: '*', topicPrefix: 'chat-' },
      publish: [
        [C, 'chat-1'],
        ['other', 'chat-'],
      ],
      subscribe: [[C, 'chat-room']],
      denied: [
        [C, 'chat', 'publish'],
        [C, 'xchat-1', 'subscribe'],
      ],
    },
  ];

  /** Puts message 1 on each topic with the full-access key, so that subscribes answer at once. */
  async function seed(topics: [string, string][]): Promise<void> {
    for (const [cache, topic] of topics)
      if (t.emulator.context.store.hasCache(cache)) await t.publish(cache, topic, 'seed');
  }

  it.each(cases)('$name', async ({ permission, publish, subscribe, denied }) => {
    const { token } = await t.emulator.issueToken({ permissions: [permission as never], ttlSeconds: 60 });
    await seed([...subscribe, ...denied.map(([c, topic]) => [c, topic] as [string, string])]);
    for (const [cache, topic] of publish)
      expect((await t.publish(cache, topic, 'x', auth(token))).status, `publish ${cache}/${topic}`).toBe(204);
    for (const [cache, topic] of subscribe)
      expect((await t.subscribe(cache, topic, { seq: 1 }, auth(token))).status, `subscribe ${cache}/${topic}`).toBe(
        200,
      );
    for (const [cache, topic, op] of denied) {
      const reply =
        op === 'publish'
          ? await t.publish(cache, topic, 'x', auth(token))
          : await t.subscribe(cache, topic, { seq: 1 }, auth(token));
      expect(reply.status, `${op} ${cache}/${topic}`).toBe(403);
      expect(reply.json.code).toBe('permission_denied');
    }
  });

  it('any matching permission grants access', async () => {
    const { token } = await t.emulator.issueToken({
      permissions: [
        { role: 'subscribeonly', cache: '*' },
        { role: 'publishonly', cache: 'other', topic: 'feed' },
      ],
      ttlSeconds: 60,
    });
    await seed([[C, 'feed']]);
    expect((await t.publish('other', 'feed', 'x', auth(token))).status).toBe(204);
    expect((await t.publish(C, 'feed', 'x', auth(token))).status).toBe(403);
    expect((await t.subscribe(C, 'feed', { seq: 1 }, auth(token))).status).toBe(200);
  });

  it('checks credentials before anything else: no token on an unknown cache is 401, not 404', async () => {
    expect((await t.publish('no-such-cache', 'x', 'v', { headers: {} })).status).toBe(401);
    expect((await t.publish('no-such-cache', 'x', 'v', { headers: { authorization: 'wrong' } })).status).toBe(401);
  });
});
