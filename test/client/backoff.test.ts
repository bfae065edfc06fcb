import { describe, expect, it, vi } from 'vitest';
import { abortableSleep, retryDelayMs, retryPolicy } from '../../client/backoff.js';

describe('retryDelayMs', () => {
  const policy = retryPolicy({ initialDelayMs: 250, maxDelayMs: 30_000, random: () => 0 });

  it('doubles from the initial delay up to the cap', () => {
    expect([1, 2, 3, 4, 8, 9, 50].map((retry) => retryDelayMs(policy, retry))).toEqual([
      250, 500, 1000, 2000, 30_000, 30_000, 30_000,
    ]);
  });

  it("takes the server's Retry-After as given, above the cap too", () => {
    expect(retryDelayMs(policy, 1, 0)).toBe(0);
    expect(retryDelayMs(policy, 5, 120)).toBe(120_000);
  });

  it('keeps jittered delays within [half, whole)', () => {
    const delay = (random: number) => retryDelayMs(retryPolicy({ initialDelayMs: 1000, random: () => random }), 1);
    expect(delay(0)).toBe(1000);
    expect(delay(0.5)).toBe(750);
    expect(delay(0.999_999)).toBe(500);
  });

  it('has the documented defaults', () => {
    const defaults = retryPolicy();
    expect(defaults).toMatchObject({ maxRetries: 8, initialDelayMs: 250, maxDelayMs: 30_000, random: Math.random });
    expect(defaults.sleep).toBe(abortableSleep);
  });
});

describe('abortableSleep', () => {
  it('ends early when the signal fires', async () => {
    const controller = new AbortController();
    const slept = abortableSleep(3_600_000, controller.signal);
    controller.abort();
    await expect(slept).resolves.toBeUndefined();
  });

  it('returns at once for a signal that has already fired, without a timer', async () => {
    const timer = vi.spyOn(globalThis, 'setTimeout');
    await abortableSleep(3_600_000, AbortSignal.abort());
    expect(timer).not.toHaveBeenCalled();
  });

  it('waits through a timer, clamped to what setTimeout can hold', async () => {
    vi.useFakeTimers();
    try {
      const timer = vi.spyOn(globalThis, 'setTimeout');
      const controller = new AbortController();
      const slept = abortableSleep(10 * 2 ** 31, controller.signal);
      expect(timer).toHaveBeenCalledWith(expect.any(Function), 2 ** 31 - 1);
      vi.advanceTimersByTime(2 ** 31 - 1);
      await expect(slept).resolves.toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
