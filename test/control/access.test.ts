import { afterEach, describe, expect, it } from 'vitest';
import { checkControlPlaneExposure, isLoopback } from '../../emulator/control/admin-key.js';
import { SettingsError, startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { resolveSettings } from '../../emulator/settings.js';
import { clientOf, start } from './helpers.js';

// Who may use the control plane, and how it answers bad requests.

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('the admin key', () => {
  const ADMIN_KEY = 'an-admin-key-for-tests';

  it('when configured, every operation but health needs it: 401 without, 403 wrong, 200 right', async () => {
    emulator = await start({ adminKey: ADMIN_KEY });
    const client = clientOf(emulator);
    expect((await client.control('GET', '/health')).status).toBe(200);
    const without = await client.control('GET', '/state');
    expect([without.status, ((await without.json()) as { code: string }).code]).toEqual([401, 'admin_key_required']);
    const wrong = await client.control('POST', '/reset', undefined, { 'x-emulator-admin-key': `${ADMIN_KEY}!` });
    expect([wrong.status, ((await wrong.json()) as { code: string }).code]).toEqual([403, 'admin_key_invalid']);
    expect((await client.control('GET', '/state', undefined, { 'X-Emulator-Admin-Key': ADMIN_KEY })).status).toBe(200);
    // Refused before the body is looked at: no fault was added.
    await client.control('POST', '/faults', { status: 500 });
    expect(emulator.faults()).toEqual([]);
  });

  it('on loopback without a configured key, the control plane is open', async () => {
    emulator = await start();
    expect((await clientOf(emulator).control('GET', '/state')).status).toBe(200);
  });

  it('beyond loopback, the emulator refuses to start with the control plane on and no key', async () => {
    await expect(startEmulator({ host: '0.0.0.0', port: 0, logLevel: 'silent' })).rejects.toThrow(SettingsError);
    await expect(startEmulator({ host: '0.0.0.0', port: 0, logLevel: 'silent' })).rejects.toThrow(
      /beyond loopback.*--admin-key.*--control off/,
    );
    expect(() => checkControlPlaneExposure(resolveSettings({ host: '0.0.0.0', adminKey: ADMIN_KEY }))).not.toThrow();
    expect(() => checkControlPlaneExposure(resolveSettings({ host: '::', controlPlane: false }))).not.toThrow();
  });

  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['128.0.0.1', false],
  ])('isLoopback(%s) is %s', (host, expected) => {
    expect(isLoopback(host)).toBe(expected);
  });
});

describe('--control off', () => {
  it('removes every control operation (404) but keeps health, and the service works', async () => {
    emulator = await start({ controlPlane: false });
    const client = clientOf(emulator);
    expect((await client.control('GET', '/health')).status).toBe(200);
    for (const [method, path] of [
      ['GET', '/state'],
      ['POST', '/reset'],
      ['POST', '/faults'],
      ['POST', '/clock'],
    ] as const) {
      const response = await client.control(method, path, method === 'POST' ? {} : undefined);
      expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([404, 'route_not_found']);
    }
    expect((await client.publish('t')).status).toBe(204);
  });
});

describe('bodies', () => {
  it('bad JSON, wrong media types and schema violations are 400s with a JSON {code, message}', async () => {
    emulator = await start();
    const { url } = emulator;
    const send = (body: string, type: string) =>
      fetch(`${url}/_emulator/faults`, { method: 'POST', headers: { 'content-type': type }, body });
    const cases: [Response, number, string, RegExp][] = [
      [await send('{bad', 'application/json'), 400, 'invalid_request', /valid JSON/],
      [await send('status: 500', 'text/plain'), 400, 'unsupported_content_type', /application\/json/],
      [
        await send('{"status": 418}', 'application/json'),
        400,
        'invalid_body',
        /body.status must be one of 400, 401, 403, 404, 429, 500, 503/,
      ],
      [
        await send('{"status": 500, "drop": true}', 'application/json'),
        400,
        'invalid_body',
        /status and drop cannot be combined/,
      ],
      [await send('{"status": 500, "stauts": 1}', 'application/json'), 400, 'invalid_body', /unknown member 'stauts'/],
      [await send('{"status": "500"}', 'application/json'), 400, 'invalid_body', /body.status must be one of/],
      [
        await send('{"status": 500, "afterItems": 2}', 'application/json'),
        400,
        'invalid_body',
        /afterItems and whileWaiting need operation subscribe/,
      ],
      [
        await send('{"status": 500, "code": "missing_token"}', 'application/json'),
        400,
        'invalid_body',
        /code 'missing_token' answers 401, not 500/,
      ],
      [await send('{}', 'application/json'), 400, 'invalid_body', /a fault needs an effect/],
      [await send('', 'application/json'), 400, 'invalid_request', /valid JSON/],
    ];
    for (const [response, status, code, message] of cases) {
      expect(response.status).toBe(status);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe(code);
      expect(body.message).toMatch(message);
    }
    expect(emulator.faults()).toEqual([]);
  });

  it('a body larger than the message payload limit is fine for the control plane', async () => {
    emulator = await start({ payloadLimitBytes: 64 });
    const response = await clientOf(emulator).control('POST', '/faults', {
      status: 500,
      topic: 't',
      message: 'x'.repeat(400),
    });
    expect(response.status).toBe(201);
  });

  it('unknown paths under /_emulator/ are 404 route_not_found', async () => {
    emulator = await start();
    const response = await clientOf(emulator).control('GET', '/nothing-here');
    expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([404, 'route_not_found']);
  });
});
