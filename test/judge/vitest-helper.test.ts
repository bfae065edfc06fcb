import { describe, expect, it } from 'vitest';
import { useTopicsEmulator } from '../../testing/vitest.js';

// The assertion a user's test writes after driving their client against the emulator.

describe('expect(topics).toHaveNoClientViolations()', () => {
  const topics = useTopicsEmulator();

  /** Resolves once `n` request records have been journalled. */
  function journalled(n: number): Promise<void> {
    return new Promise((resolve, reject) => {
      let seen = 0;
      const timer = setTimeout(() => reject(new Error(`only ${seen} of ${n} requests journalled`)), 5000);
      const off = topics.emulator.context.events.on((event) => {
        if (event.kind === 'request' && ++seen === n) {
          clearTimeout(timer);
          off();
          resolve();
        }
      });
    });
  }

  const send = (authorization: string) =>
    fetch(`${topics.url}/topics/default-cache/t`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'text/plain' },
      body: 'hello',
    });

  it('passes a client that keeps the rules', async () => {
    const done = journalled(1);
    expect((await send(topics.apiKey)).status).toBe(204);
    await done;
    await expect(topics).toHaveNoClientViolations();
    await expect(topics.emulator).toHaveNoClientViolations();
  });

  it('fails with the rule, the sentence it rests on and the requests that show it', async () => {
    const done = journalled(1);
    expect((await send(`Bearer ${topics.apiKey}`)).status).toBe(401);
    await done;
    let message = '';
    try {
      await expect(topics).toHaveNoClientViolations();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/found 1:/);
    expect(message).toMatch(/auth\.raw-token \(contract\): 1 of its 1 requests sent 'Bearer ' before the token/);
    expect(message).toMatch(/rests on: "the Authorization header \(value is the token string\)"/);
    expect(message).toMatch(/#\d+ [\d:.]+ publish default-cache\/t -> 401 invalid_token/);
    expect(message).not.toContain(topics.apiKey);
    await expect(topics).not.toHaveNoClientViolations();
    await expect(topics).not.toHaveNoClientViolations({ contractOnly: true });
  });

  it('leaves advice out with { contractOnly: true } (what an exam fails without --strict)', async () => {
    const done = journalled(2);
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${topics.url}/topics/default-cache/t`, {
        method: 'POST',
        headers: { authorization: topics.apiKey, 'content-type': 'text/plain' },
        body: 'x'.repeat(5000),
      });
      expect(response.status).toBe(413);
    }
    await done;
    await expect(topics).not.toHaveNoClientViolations();
    await expect(topics).toHaveNoClientViolations({ contractOnly: true });
  });
});
