import { createHmac, generateKeyPairSync } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import controlDocument from '../../openapi/generated/control.json' with { type: 'json' };
import { toPortable } from '../../emulator/auth/tokens.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { testEmulator, type TestEmulator } from '../helpers/emulator.js';
import { reportFigure } from './figures.js';

// Security beyond test/emulator/auth.test.ts (which covers other keys, HS512, tampered claims,
// unsigned tokens, expiry and not-before): algorithm confusion in its other forms and the control
// plane's admin key on every operation. What a web page may not do (Host, Origin, CORS): browser.test.ts.

const C = 'default-cache';
const SIGNING_KEY = 'security-signing-key-0123456789';
let t: TestEmulator | undefined;
let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await t?.close();
  await emulator?.close();
  t = undefined;
  emulator = undefined;
});

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
/** A JWT with any header, signed by HMAC-SHA256 over its signing input with `secret`. */
function hmacSigned(header: object, claims: object, secret: string | Buffer): string {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

describe('signed tokens: the algorithm is pinned', () => {
  it('refuses every re-signed or confused token with 401, on publish and subscribe, bare and portable', async () => {
    t = await testEmulator({ signingKey: SIGNING_KEY });
    await t.publish(C, 'guarded', 'seed');
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      perms: [{ role: 'publishsubscribe', cache: '*' }],
      iss: 'topics-emulator',
      iat: now,
      nbf: now,
      exp: now + 600,
    };
    const secret = new TextEncoder().encode(SIGNING_KEY);
    const attacker = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicPem = attacker.publicKey.export({ type: 'spki', format: 'pem' });
    const forged: Record<string, string> = {
      // The classic confusion: RS256 in the header, an HMAC made with the shared secret as if it were the public key.
      'RS256 header, HMAC with the secret as key': hmacSigned({ alg: 'RS256', typ: 'JWT' }, claims, SIGNING_KEY),
      'RS256 header, HMAC with the secret as a PEM': hmacSigned(
        { alg: 'RS256', typ: 'JWT' },
        claims,
        `-----BEGIN PUBLIC KEY-----\n${Buffer.from(SIGNING_KEY).toString('base64')}\n-----END PUBLIC KEY-----\n`,
      ),
      'RS256 signed by an attacker key': await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256' })
        .sign(attacker.privateKey),
      'HS256 with the attacker public key as secret': hmacSigned({ alg: 'HS256', typ: 'JWT' }, claims, publicPem),
      'HS384 with the right secret': await new SignJWT(claims).setProtectedHeader({ alg: 'HS384' }).sign(secret),
      'HS512 with the right secret': await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(secret),
      'alg none': new UnsecuredJWT(claims).encode(),
      'alg None, empty signature': `${b64url(JSON.stringify({ alg: 'None' }))}.${b64url(JSON.stringify(claims))}.`,
      'alg nOnE, right HMAC': hmacSigned({ alg: 'nOnE' }, claims, SIGNING_KEY),
      'embedded jwk with the attacker secret': hmacSigned(
        { alg: 'HS256', jwk: { kty: 'oct', k: b64url('attacker') } },
        claims,
        'attacker',
      ),
      'kid pointing elsewhere, attacker secret': hmacSigned({ alg: 'HS256', kid: '../../dev/null' }, claims, ''),
      'HS256, no expiry': hmacSigned({ alg: 'HS256' }, { ...claims, exp: undefined }, SIGNING_KEY),
      'HS256, other issuer': hmacSigned({ alg: 'HS256' }, { ...claims, iss: 'someone-else' }, SIGNING_KEY),
      'HS256, expired': hmacSigned({ alg: 'HS256' }, { ...claims, exp: now - 1 }, SIGNING_KEY),
      'HS256, claims swapped after signing': (() => {
        const [header, , signature] = hmacSigned(
          { alg: 'HS256' },
          { ...claims, perms: [{ role: 'subscribeonly', cache: 'x' }] },
          SIGNING_KEY,
        ).split('.');
        return `${header}.${b64url(JSON.stringify(claims))}.${signature}`;
      })(),
    };
    // The control: the same claims, signed the one accepted way, pass.
    const genuine = hmacSigned({ alg: 'HS256', typ: 'JWT' }, claims, SIGNING_KEY);
    expect((await t.publish(C, 'guarded', 'x', { headers: { authorization: genuine } })).status).toBe(204);
    let refused = 0;
    for (const [what, jwt] of Object.entries(forged)) {
      for (const credential of [jwt, toPortable(jwt, 'x')]) {
        const publish = await t.publish(C, 'guarded', 'x', { headers: { authorization: credential } });
        const subscribe = await t.subscribe(
          C,
          'guarded',
          { seq: 1 },
          { headers: {}, query: `token=${encodeURIComponent(credential)}` },
        );
        for (const reply of [publish, subscribe]) {
          expect(reply.status, what).toBe(401);
          expect(['invalid_token', 'expired_token'], what).toContain(reply.json.code);
          refused += 1;
        }
      }
    }
    expect(t.emulator.context.store.position(C, 'guarded')!.next).toBe(3); // seed + the genuine one
    reportFigure(
      'forged-tokens',
      `${Object.keys(forged).length} kinds of forged or confused tokens, ${refused} requests: all 401; the genuine HS256 token accepted`,
      { kinds: Object.keys(forged), refused },
    );
  });
});

type PathItem = Record<string, { operationId?: string; security?: unknown[] }>;
/** Every operation of the control document, with its path parameters filled in. */
const controlOperations = Object.entries(controlDocument.paths as unknown as Record<string, PathItem>).flatMap(
  ([path, item]) =>
    Object.entries(item)
      .filter(([, op]) => typeof op === 'object' && op?.operationId)
      .map(([method, op]) => ({
        operationId: op.operationId!,
        open: Array.isArray(op.security) && op.security.length === 0,
        method: method.toUpperCase(),
        path: path
          .replace('{tokenId}', 'some-token')
          .replace('{cacheName}', C)
          .replace('{topicName}', 't')
          .replace('{faultId}', 'f1'),
      })),
);

describe('the control plane', () => {
  it('refuses to start beyond loopback without an admin key, before listening (API and CLI)', async () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.10']) {
      await expect(startEmulator({ host, port: 0, logLevel: 'silent' }), host).rejects.toThrow(/admin key/);
    }
    const cli = runCli(['--host', '0.0.0.0', '--port', '0']);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toMatch(/admin key/i);
    expect(cli.stdout()).not.toMatch(/Base URL/);
  });

  /** What an open operation answers anyone: health 200; the TLS authority 404 while the HTTPS port is off. */
  const openAnswer = (operationId: string) =>
    operationId === 'getTlsAuthority' ? [404, 'route_not_found'] : [200, undefined];

  it('with an admin key, every operation but health and the TLS authority needs it: 401 without, 403 wrong, and nothing changes', async () => {
    const adminKey = 'security-admin-key-0123';
    emulator = await startEmulator({ port: 0, logLevel: 'silent', adminKey });
    const before = emulator.state();
    let refused = 0;
    for (const op of controlOperations) {
      const send = (headers: Record<string, string>) =>
        request(`${emulator!.url}${op.path}`, {
          method: op.method as 'GET',
          headers: { 'content-type': 'application/json', ...headers },
          body: op.method === 'GET' || op.method === 'DELETE' ? null : '{}',
        });
      const answers = {
        none: await send({}),
        wrong: await send({ 'x-emulator-admin-key': 'security-admin-key-0124' }),
        empty: await send({ 'x-emulator-admin-key': '' }),
        prefix: await send({ 'x-emulator-admin-key': adminKey.slice(0, -1) }),
      };
      for (const [how, answer] of Object.entries(answers)) {
        const body = (await answer.body.json()) as { code?: string };
        if (op.open) {
          expect([answer.statusCode, body.code], `${op.operationId} ${how}`).toEqual(openAnswer(op.operationId));
          continue;
        }
        const expected = how === 'none' || how === 'empty' ? [401, 'admin_key_required'] : [403, 'admin_key_invalid'];
        expect([answer.statusCode, body.code], `${op.operationId} ${how}`).toEqual(expected);
        refused += 1;
      }
    }
    const { topics, faults, scheduled, chaos, waitingSubscribers } = emulator.state();
    expect({ topics, faults, scheduled, chaos, waitingSubscribers }).toEqual({
      topics: before.topics,
      faults: before.faults,
      scheduled: before.scheduled,
      chaos: before.chaos,
      waitingSubscribers: before.waitingSubscribers,
    });
    const allowed = await request(`${emulator.url}/_emulator/state`, { headers: { 'x-emulator-admin-key': adminKey } });
    expect(allowed.statusCode).toBe(200);
    await allowed.body.dump();
    reportFigure(
      'admin-key',
      `${controlOperations.length} control operations: ${refused} requests without or with a wrong admin key refused (401/403), health open, nothing changed`,
      { operations: controlOperations.length, refused },
    );
  });

  it('switched off, only health (and the TLS authority, when there is one) is served', async () => {
    emulator = await startEmulator({ port: 0, logLevel: 'silent', controlPlane: false });
    for (const op of controlOperations) {
      const bodyless = op.method === 'GET' || op.method === 'DELETE';
      const answer = await request(`${emulator.url}${op.path}`, {
        method: op.method as 'GET',
        headers: bodyless ? {} : { 'content-type': 'application/json' },
        body: bodyless ? null : '{}',
      });
      const body = (await answer.body.json()) as { code?: string };
      if (op.open) expect([answer.statusCode, body.code], op.operationId).toEqual(openAnswer(op.operationId));
      else expect([answer.statusCode, body.code], op.operationId).toEqual([404, 'route_not_found']);
    }
  });
});
