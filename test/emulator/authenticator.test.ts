import { describe, expect, it } from 'vitest';
import { Authenticator } from '../../emulator/auth/authenticator.js';
import { issueToken, sdkEndpoint, sdkKey, signingKeyBytes } from '../../emulator/auth/tokens.js';
import { Clock } from '../../emulator/clock.js';

// The authenticator remembers verdicts by digest and the last credential looked up beside its
// verdict. The memo must never answer for another credential, nor outlive a reset, nor skip
// the checks that depend on the time.

const KEY = 'first-key-12345';
const SIGNING_KEY = 'test-signing-key-0123456789';

function authenticator() {
  const clock = new Clock();
  clock.freeze();
  return { clock, auth: new Authenticator([KEY, 'second-key-12345'], SIGNING_KEY, clock) };
}

async function tokenFor(clock: Clock, ttlSeconds: number): Promise<string> {
  const permissions = [{ role: 'publishsubscribe' as const, cache: '*', topic: '*' }];
  const issued = await issueToken({ ttlSeconds, permissions }, signingKeyBytes(SIGNING_KEY), clock.now(), 'local');
  return issued.token;
}

describe('Authenticator.known', () => {
  it('knows a credential only once it has been verified', async () => {
    const { auth } = authenticator();
    expect(auth.known(KEY)).toBeUndefined();
    await auth.authenticate(KEY);
    expect(auth.known(KEY)).toEqual({ kind: 'apiKey' });
  });

  it('answers each of two alternating credentials with its own verdict', async () => {
    const { auth } = authenticator();
    await auth.authenticate(KEY);
    await expect(auth.authenticate('not-a-key')).rejects.toMatchObject({ code: 'invalid_token' });
    for (let i = 0; i < 3; i++) {
      expect(auth.known(KEY)).toEqual({ kind: 'apiKey' });
      expect(() => auth.known('not-a-key')).toThrow(expect.objectContaining({ code: 'invalid_token' }));
      expect(auth.known('second-key-12345')).toBeUndefined();
    }
  });

  it('forgets the last credential with every verdict at a reset', async () => {
    const { auth } = authenticator();
    await auth.authenticate(KEY);
    expect(auth.known(KEY)).toEqual({ kind: 'apiKey' });
    auth.reset();
    expect(auth.known(KEY)).toBeUndefined();
  });

  it('still checks the time of a token it looked up last', async () => {
    const { auth, clock } = authenticator();
    const token = await tokenFor(clock, 60);
    await auth.authenticate(token);
    expect(auth.known(token)).toMatchObject({ kind: 'token' });
    clock.advance(61_000);
    expect(() => auth.known(token)).toThrow(expect.objectContaining({ code: 'expired_token' }));
  });
});

describe("an API key's SDK form (a JWT naming the gRPC TLS door and the key)", () => {
  const endpoint = 'localhost:4548';

  it('authenticates as the key it names, and carries the endpoints an SDK reads (c, cp), not the key', async () => {
    const { auth } = authenticator();
    const form = await sdkKey('second-key-12345', signingKeyBytes(SIGNING_KEY), endpoint);
    expect(await auth.authenticate(form)).toEqual({ kind: 'apiKey' });
    const claims = JSON.parse(Buffer.from(form.split('.')[1]!, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({ c: endpoint, cp: endpoint });
    expect(JSON.stringify(claims)).not.toContain('second-key');
  });

  it('is refused for a key the emulator does not have, or signed with another signing key', async () => {
    const { auth } = authenticator();
    const unknown = await sdkKey('removed-key-12345', signingKeyBytes(SIGNING_KEY), endpoint);
    await expect(auth.authenticate(unknown)).rejects.toMatchObject({ code: 'invalid_token' });
    const foreign = await sdkKey(KEY, signingKeyBytes('another-signing-key-0123'), endpoint);
    await expect(auth.authenticate(foreign)).rejects.toMatchObject({ code: 'invalid_token' });
  });

  it('gives tokens the same endpoint claims when the door is on', async () => {
    const permissions = [{ role: 'publishsubscribe' as const, cache: '*', topic: '*' }];
    const { token } = await issueToken({ ttlSeconds: 60, permissions }, signingKeyBytes(SIGNING_KEY), 0, 'e', endpoint);
    const jwt = (JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { api_key: string }).api_key;
    expect(JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'))).toMatchObject({
      c: endpoint,
      cp: endpoint,
    });
  });
});

describe('sdkEndpoint', () => {
  it('names localhost for loopback and every interface, the endpoint host when one is set, else the host', () => {
    expect(sdkEndpoint(undefined, '127.0.0.1', 4548)).toBe('localhost:4548');
    expect(sdkEndpoint(undefined, '0.0.0.0', 4548)).toBe('localhost:4548');
    expect(sdkEndpoint('emulator.internal:4545', '0.0.0.0', 4548)).toBe('emulator.internal:4548');
    expect(sdkEndpoint(undefined, '10.0.0.5', 4548)).toBe('10.0.0.5:4548');
    expect(sdkEndpoint('[fd00::1]:4545', '::', 4548)).toBe('[fd00::1]:4548');
  });
});
