// The run's settings: what the CLI, a config file, environment variables and the
// programmatic API all resolve to, with the defaults in one place.
import { randomBytes, randomInt } from 'node:crypto';

export interface ConformanceOptions {
  baseUrl: string;
  token: string;
  cache: string;
  /** A token for the same cache that lacks publish access (403 rules). */
  restrictedToken?: string;
  /** A token that has expired (401 rules). */
  expiredToken?: string;
  /** A cache name that does not exist (default: a random one). */
  missingCache?: string;
  seed?: number;
  /** Generated scenarios per stream property. */
  runs?: number;
  maxRequests?: number;
  /** Stop starting rules after this long; running ones finish. */
  timeBudgetMs?: number;
  /** How long a failing stream property may spend shrinking its scenario. */
  shrinkTimeMs?: number;
  /** Requests per second at most (0 = no cap). */
  rate?: number;
  concurrency?: number;
  /** Rule ids or globs (`auth.*`, `*loss*`), or a level name. */
  rules?: string[];
  /** `stream@SEED:PATH` from a failure report: run exactly that scenario again. */
  replay?: string;
  /** Largest message the target accepts, in bytes (service-facts: 4 KB). */
  payloadLimit?: number;
  /** Client-side abort of one long-poll; the stream re-polls after it. */
  pollTimeoutMs?: number;
  /** A subscribe with nothing to deliver may not answer "no elements" sooner than this. */
  minLongPollMs?: number;
  /** 'auto' detects the emulator's control plane at /_emulator/health. */
  control?: 'auto' | 'on' | 'off';
  adminKey?: string;
  /** Let control rules call POST /_emulator/reset (clears every topic of that emulator). */
  allowGlobalReset?: boolean;
  /** Receives one line per rule as it finishes. */
  onProgress?: (line: string) => void;
}

export type ResolvedOptions = Required<
  Omit<ConformanceOptions, 'restrictedToken' | 'expiredToken' | 'adminKey' | 'replay' | 'onProgress'>
> &
  Pick<ConformanceOptions, 'restrictedToken' | 'expiredToken' | 'adminKey' | 'replay' | 'onProgress'> & {
    runId: string;
  };

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const defaults = {
  runs: 25,
  maxRequests: 20_000,
  timeBudgetMs: 55_000,
  shrinkTimeMs: 10_000,
  rate: 0,
  concurrency: 16,
  payloadLimit: 4096,
  pollTimeoutMs: 10_000,
  minLongPollMs: 250,
} as const;

function positive(name: string, value: number | undefined, fallback: number, min = 1): number {
  const chosen = value ?? fallback;
  if (!Number.isFinite(chosen) || !Number.isInteger(chosen) || chosen < min) {
    throw new UsageError(`${name} must be an integer >= ${min} (got ${String(value)})`);
  }
  return chosen;
}

export function resolveOptions(options: ConformanceOptions): ResolvedOptions {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new UsageError(`--base-url is not a URL: ${JSON.stringify(options.baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError('--base-url must be http:// or https://');
  if (!options.token) throw new UsageError('--token is required (the token or API key to test with)');
  if (!options.cache) throw new UsageError('--cache is required (an existing cache to create test topics in)');
  const runId = randomBytes(4).toString('hex');
  const control = options.control ?? 'auto';
  if (!['auto', 'on', 'off'].includes(control)) throw new UsageError('--control must be auto, on or off');
  return {
    ...options,
    baseUrl: url.toString().replace(/\/+$/, ''),
    missingCache: options.missingCache ?? `conformance-missing-${runId}`,
    seed: options.seed ?? randomInt(0, 2 ** 31 - 1),
    runs: positive('--runs', options.runs, defaults.runs),
    maxRequests: positive('--max-requests', options.maxRequests, defaults.maxRequests),
    timeBudgetMs: positive('--time-budget', options.timeBudgetMs, defaults.timeBudgetMs),
    shrinkTimeMs: positive('--shrink-time', options.shrinkTimeMs, defaults.shrinkTimeMs, 0),
    rate: positive('--rate', options.rate, defaults.rate, 0),
    concurrency: positive('--concurrency', options.concurrency, defaults.concurrency, 2),
    rules: options.rules ?? [],
    payloadLimit: positive('--payload-limit', options.payloadLimit, defaults.payloadLimit),
    pollTimeoutMs: positive('--poll-timeout', options.pollTimeoutMs, defaults.pollTimeoutMs, 100),
    minLongPollMs: positive('--min-long-poll', options.minLongPollMs, defaults.minLongPollMs, 0),
    control,
    allowGlobalReset: options.allowGlobalReset ?? false,
    runId,
  };
}
