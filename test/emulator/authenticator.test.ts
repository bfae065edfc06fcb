import { describe, expect, it } from 'vitest';
import { Authenticator } from '../../emulator/auth/authenticator.js';
import { issueToken, signingKeyBytes } from '../../emulator/auth/tokens.js';
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
