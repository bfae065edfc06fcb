// How long a subscription waits before retrying a failed poll, and the wait itself. Both are
// injectable so that tests (and callers with their own scheduler) never wait for real.

/** Waits `ms`, or less when `signal` fires; it must not reject on abort. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface RetryOptions {
  /** Consecutive failed polls (429, 5xx, network) retried before the error is thrown. Default 8. */
  maxRetries?: number;
  /** Delay before the first retry when the server gives no Retry-After. Default 250 ms. */
  initialDelayMs?: number;
  /** Cap of the exponential delay (not of a server's Retry-After). Default 30 000 ms. */
  maxDelayMs?: number;
  /** The wait; default a timer that ends early on abort. */
  sleep?: Sleep;
  /** Jitter source in [0, 1): the delay is scaled by 1 - random()/2. Default Math.random. */
  random?: () => number;
}

export type RetryPolicy = Required<RetryOptions>;

export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  return {
    maxRetries: options.maxRetries ?? 8,
    initialDelayMs: options.initialDelayMs ?? 250,
    maxDelayMs: options.maxDelayMs ?? 30_000,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
  };
}

/** Statuses worth retrying: the limit may lift, the fault may pass. 4xx else is the caller's. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * The wait before retry number `retry` (1 for the first). A server's Retry-After is honoured
 * as given; otherwise the delay doubles from `initialDelayMs` up to `maxDelayMs`, with jitter
 * downwards so that many subscribers refused together do not return together.
 */
export function retryDelayMs(policy: RetryPolicy, retry: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000;
  const exponential = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (retry - 1));
  return Math.round(exponential * (1 - policy.random() / 2));
}

// setTimeout fires at once for delays above 2^31 - 1 ms; a long Retry-After must not become 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.min(Math.max(0, ms), MAX_TIMER_MS));
    signal.addEventListener('abort', done, { once: true });
  });
