import { describe, expect, it } from 'vitest';
import { browserGuard, type BrowserFacts } from '../../emulator/security/browser-guard.js';
import { hostCheck, hostCheckApplies, hostnameOf, isAllowedHostname } from '../../emulator/security/hosts.js';
import { isLocalOrigin, isSameOrigin, originPolicy } from '../../emulator/security/origins.js';
import { resolveSettings, SettingsError } from '../../emulator/settings.js';

// The browser security decisions as pure functions (emulator/security/): which Host is served,
// which Origin may call which plane, and what the guard refuses. The HTTP cases are in
// test/reliability/security.test.ts.

describe('the Host check', () => {
  it.each([
    ['localhost:4545', 'localhost'],
    ['LOCALHOST', 'localhost'],
    ['app.localhost:5173', 'app.localhost'],
    ['localhost.:4545', 'localhost'],
    ['127.0.0.1:4545', '127.0.0.1'],
    ['[::1]:4545', '::1'],
    ['[::1]', '::1'],
    ['evil.example:4545', 'evil.example'],
    ['::1', ''],
    ['[::1]evil.example', ''],
    ['localhost:80evil', ''],
  ])('hostnameOf(%s) is %s', (host, name) => {
    expect(hostnameOf(host)).toBe(name);
  });

  it.each([
    // Names no page can rebind, and addresses.
    ['localhost', [], true],
    ['app.localhost', [], true],
    ['127.0.0.1', [], true],
    ['127.8.9.10', [], true],
    ['::1', [], true],
    ['192.168.1.20', [], true],
    ['::ffff:127.0.0.1', [], true],
    // Names a page could point at 127.0.0.1.
    ['evil.example', [], false],
    ['localhost.evil.example', [], false],
    ['evillocalhost', [], false],
    ['127.0.0.1.nip.io', [], false],
    ['', [], false],
    // Allowed hosts: exact, a leading dot for subdomains, '*' for any.
    ['emulator', ['emulator'], true],
    ['emulator', ['Emulator'], true],
    ['emulator.internal', ['emulator'], false],
    ['dev.test', ['.dev.test'], true],
    ['api.dev.test', ['.dev.test'], true],
    ['evildev.test', ['.dev.test'], false],
    ['anything.example', ['*'], true],
  ] as const)('isAllowedHostname(%s, %j) is %s', (name, allowed, expected) => {
    expect(isAllowedHostname(name, allowed)).toBe(expected);
  });

  it('applies on loopback, and beyond loopback only when hosts are allowed; never with *', () => {
    expect(hostCheckApplies('127.0.0.1', [])).toBe(true);
    expect(hostCheckApplies('localhost', [])).toBe(true);
    expect(hostCheckApplies('::1', [])).toBe(true);
    expect(hostCheckApplies('0.0.0.0', [])).toBe(false);
    expect(hostCheckApplies('0.0.0.0', ['emulator'])).toBe(true);
    expect(hostCheckApplies('127.0.0.1', ['*'])).toBe(false);
    expect(hostCheck('0.0.0.0', [])).toBeUndefined();
  });

  it('remembers an allowed Host and keeps refusing a refused one', () => {
    const check = hostCheck('127.0.0.1', ['emulator'])!;
    for (let i = 0; i < 3; i++) {
      expect(check('localhost:4545')).toBe(true);
      expect(check('emulator:4545')).toBe(true);
      expect(check('evil.example:4545')).toBe(false);
    }
    // An empty Host is refused from the start, before any Host was allowed.
    expect(hostCheck('127.0.0.1', [])!('')).toBe(false);
    // The same Host twice in a row (the last allowed one is compared first), allowed or refused.
    expect([check('emulator:4545'), check('emulator:4545')]).toEqual([true, true]);
    expect([check('evil.example:4545'), check('evil.example:4545')]).toEqual([false, false]);
    expect(check('emulator:4545')).toBe(true);
    // Past the bound the memory starts over and the verdicts stay the same.
    for (let i = 0; i < 600; i++) expect(check(`n${i}.localhost`)).toBe(true);
    expect(check('localhost:4545')).toBe(true);
    expect(check('evil.example')).toBe(false);
  });
});

describe('origins', () => {
  it.each([
    ['http://localhost:5173', true],
    ['https://localhost', true],
    ['http://app.localhost:3000', true],
    ['http://127.0.0.1:8080', true],
    ['http://127.1.2.3', true],
    ['http://[::1]:5173', true],
    ['http://LOCALHOST:5173', true],
    ['http://localhost.evil.example', false],
    ['http://evil.example', false],
    ['http://192.168.1.20:3000', false],
    ['file://', false],
    ['null', false],
    ['http://localhost:5173/path', false],
    ['chrome-extension://abc', false],
  ])('isLocalOrigin(%s) is %s', (origin, expected) => {
    expect(isLocalOrigin(origin)).toBe(expected);
  });

  it('same origin: the Origin names the Host the request went to, over http or https', () => {
    expect(isSameOrigin('http://localhost:4545', 'localhost:4545')).toBe(true);
    expect(isSameOrigin('https://emulator.test', 'emulator.test')).toBe(true);
    expect(isSameOrigin('http://10.0.0.5:4545', '10.0.0.5:4545')).toBe(true);
    expect(isSameOrigin('http://localhost:5173', 'localhost:4545')).toBe(false);
    expect(isSameOrigin('http://localhost:4545', undefined)).toBe(false);
  });

  it('the service routes take local, same and configured origins; the control plane only same and configured', () => {
    const policy = originPolicy({
      corsOrigins: ['https://app.example'],
      controlCorsOrigins: ['http://localhost:9000'],
    });
    const host = 'localhost:4545';
    expect(policy.allows('service', 'http://localhost:5173', host)).toBe(true);
    expect(policy.allows('service', 'https://app.example', host)).toBe(true);
    expect(policy.allows('service', 'https://evil.example', host)).toBe(false);
    expect(policy.allows('service', 'null', host)).toBe(false);
    expect(policy.allows('control', 'http://localhost:4545', host)).toBe(true);
    expect(policy.allows('control', 'http://localhost:9000', host)).toBe(true);
    expect(policy.allows('control', 'http://localhost:5173', host)).toBe(false);
    expect(policy.allows('control', 'https://app.example', host)).toBe(false);
    // Grants: the origin itself for a listed one; none for same-origin (browsers need none) or refused.
    expect(policy.grant('service', 'http://localhost:5173')).toBe('http://localhost:5173');
    expect(policy.grant('service', 'https://evil.example')).toBe(false);
    expect(policy.grant('service', undefined)).toBe(false);
    expect(policy.grant('control', 'http://localhost:9000')).toBe('http://localhost:9000');
    expect(policy.grant('control', 'http://localhost:4545')).toBe(false);
  });

  it("'*' takes any origin and grants '*'", () => {
    const policy = originPolicy({ corsOrigins: ['*'], controlCorsOrigins: ['*'] });
    for (const plane of ['service', 'control'] as const) {
      expect(policy.allows(plane, 'https://anywhere.example', 'localhost:4545')).toBe(true);
      expect(policy.grant(plane, 'https://anywhere.example')).toBe('*');
    }
  });
});

describe('the browser guard', () => {
  const guard = browserGuard(resolveSettings({}));
  const facts = (over: Partial<BrowserFacts>): BrowserFacts => ({
    method: 'POST',
    host: 'localhost:4545',
    origin: undefined,
    fetchSite: undefined,
    plane: 'control',
    ...over,
  });
  const refused = (over: Partial<BrowserFacts>) => guard.refusal(facts(over))?.code;

  it('serves what curl, SDKs and tests send: no Origin, no Sec-Fetch-Site', () => {
    expect(refused({})).toBeUndefined();
    expect(refused({ host: '127.0.0.1:4545', plane: 'service' })).toBeUndefined();
    // Without a Host: the connection guard refuses HTTP/1.1 (400) and, where Hosts are checked, HTTP/1.0 (403).
    expect(refused({ host: undefined })).toBeUndefined();
  });

  it('refuses a rebinding Host before anything else', () => {
    expect(refused({ host: 'evil.example:4545' })).toBe('host_not_allowed');
    expect(refused({ host: 'evil.example:4545', origin: 'http://evil.example:4545', plane: 'service' })).toBe(
      'host_not_allowed',
    );
  });

  it('refuses a foreign Origin on either plane, whatever the method; a local one only on the control plane', () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS']) {
      expect(refused({ method, origin: 'https://evil.example' }), method).toBe('origin_not_allowed');
      expect(refused({ method, origin: 'https://evil.example', plane: 'service' }), method).toBe('origin_not_allowed');
      expect(refused({ method, origin: 'http://localhost:5173' }), method).toBe('origin_not_allowed');
      expect(refused({ method, origin: 'http://localhost:5173', plane: 'service' }), method).toBeUndefined();
      expect(refused({ method, origin: 'http://localhost:4545' }), method).toBeUndefined();
    }
  });

  it('without Origin, refuses a state-changing request another site sent (Sec-Fetch-Site), not a read or a navigation', () => {
    expect(refused({ fetchSite: 'cross-site' })).toBe('origin_not_allowed');
    expect(refused({ fetchSite: 'same-site', method: 'DELETE' })).toBe('origin_not_allowed');
    expect(refused({ fetchSite: 'cross-site', plane: 'service' })).toBe('origin_not_allowed');
    expect(refused({ fetchSite: 'cross-site', method: 'GET' })).toBeUndefined();
    expect(refused({ fetchSite: 'same-origin' })).toBeUndefined();
    expect(refused({ fetchSite: 'none' })).toBeUndefined();
  });
});

describe('settings', () => {
  it('defaults: local origins only, no control origins, no extra hosts', () => {
    const settings = resolveSettings({});
    expect([settings.corsOrigins, settings.controlCorsOrigins, settings.allowedHosts]).toEqual([[], [], []]);
  });

  it('refuses origins with a path and hosts with a port', () => {
    expect(() => resolveSettings({ corsOrigins: ['http://localhost:3000/'] })).toThrow(SettingsError);
    expect(() => resolveSettings({ corsOrigins: ['http://localhost:3000/'] })).toThrow(
      "corsOrigins.0 must be an origin (scheme://host[:port], no path), 'null' or '*'",
    );
    expect(() => resolveSettings({ controlCorsOrigins: ['localhost:3000'] })).toThrow(SettingsError);
    expect(() => resolveSettings({ allowedHosts: ['emulator:4545'] })).toThrow(SettingsError);
    expect(() => resolveSettings({ allowedHosts: ['*.example'] })).toThrow(SettingsError);
    expect(
      resolveSettings({
        corsOrigins: ['*', 'null', 'capacitor://localhost'],
        allowedHosts: ['*', '.dev.test', 'emulator'],
      }).allowedHosts,
    ).toHaveLength(3);
  });
});
