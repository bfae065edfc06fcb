import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Clock, MAX_TIMER_MS } from '../../emulator/clock.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';

// Probe: the schemas allow durations up to a year, Node's timers hold 2^31 - 1 ms (24.8 days) and
// fire a longer one at once. A fault with `startAfterMs: 2592000000` (30 days) fired at once; so
// did a token withdrawal's, a topic reset's and a rule's longer durations. Every clock timer is
// armed in steps now (Clock.arm), so any length waits its whole time.

const THIRTY_DAYS = 2_592_000_000;

describe('a clock timer longer than Node holds', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits its whole time: not at 2^31 - 1 ms, but at 30 days', () => {
    vi.useFakeTimers();
    const clock = new Clock();
    const fired = vi.fn();
    clock.schedule(THIRTY_DAYS, fired);
    vi.advanceTimersByTime(MAX_TIMER_MS + 1000);
    expect(fired).not.toHaveBeenCalled();
    expect(clock.state().pendingTimers).toBe(1);
    vi.advanceTimersByTime(THIRTY_DAYS - MAX_TIMER_MS);
    expect(fired).toHaveBeenCalledOnce();
    expect(clock.state().pendingTimers).toBe(0);
  });
});

describe('30 days from now, through the control plane', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
  });
  afterAll(async () => {
    await emulator.close();
  });

  const publish = (authorization: string) =>
    fetch(`${emulator.url}/topics/default-cache/later`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'text/plain' },
      body: 'now',
    });

  it('a fault that starts after 30 days does not answer now', async () => {
    const fault = emulator.addFault({ operation: 'publish', topic: 'later', status: 500, startAfterMs: THIRTY_DAYS });
    expect(fault.armed).toBe(false);
    expect((await publish(emulator.apiKey)).status).toBe(204);
    emulator.clearFaults();
  });

  it('a token revoked after 30 days still works now', async () => {
    const { token } = await emulator.issueToken({
      permissions: [{ role: 'publishsubscribe', cache: '*', topic: '*' }],
      ttlSeconds: 90_000,
      tokenId: 'for-a-month',
    });
    emulator.revokeToken('for-a-month', { afterMs: THIRTY_DAYS }, 'test');
    expect((await publish(token)).status).toBe(204);
  });

  it('a topic reset after 30 days leaves the page as it is now', async () => {
    expect((await publish(emulator.apiKey)).status).toBe(204);
    const page = emulator.state().topics.find((t) => t.topic === 'later')!.page;
    emulator.resetTopic('default-cache', 'later', { afterMs: THIRTY_DAYS }, 'test');
    expect((await publish(emulator.apiKey)).status).toBe(204);
    expect(emulator.state().topics.find((t) => t.topic === 'later')!.page).toBe(page);
  });
});

// Probe: a page change scheduled for a cache that was deleted threw inside its clock timer; from
// Node's timer that is an uncaught exception, from `advance` a 500 that left the other due timers
// unfired. The clock now hears a callback that throws and fires the rest.
describe('a clock timer whose callback throws', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is reported, and the other due timers still fire in order when the clock is moved', () => {
    const clock = new Clock();
    clock.set(0);
    const reported: unknown[] = [];
    clock.onTimerError = (error) => reported.push(error);
    const fired: string[] = [];
    clock.schedule(10, () => fired.push('first'));
    clock.schedule(20, () => {
      throw new Error('cache gone');
    });
    clock.schedule(30, () => fired.push('third'));
    expect(() => clock.advance(100)).not.toThrow();
    expect(fired).toEqual(['first', 'third']);
    expect(reported).toEqual([new Error('cache gone')]);
    expect(clock.state().pendingTimers).toBe(0);
  });

  it("is reported from Node's timer instead of escaping as an uncaught exception", () => {
    vi.useFakeTimers();
    const clock = new Clock();
    const reported: unknown[] = [];
    clock.onTimerError = (error) => reported.push(error);
    clock.schedule(5, () => {
      throw new Error('cache gone');
    });
    expect(() => vi.advanceTimersByTime(10)).not.toThrow();
    expect(reported).toEqual([new Error('cache gone')]);
  });
});
