import type { LimitsInput } from '../../openapi/generated/control-types.js';

/** The account limits in force: every member of LimitsInput given. */
export type LimitsProfile = Required<LimitsInput>;

// What the account limits count, behind one seam: in this process (local-counts.ts, synchronous),
// or on a shared store for every replica at once (redis/limit-counts.ts, one round trip).
// The counts decide nothing about HTTP: they admit or say which limit refuses, with the figure.

/** Which limit refused a request, the count that exceeded it, and the Retry-After to answer. */
export interface LimitRefusal {
  limit: 'operations' | 'subscriptions';
  count: number;
  retryAfterSeconds: number;
}

/** The end of a request's answer (its response's `close`): a concurrent subscription counted in a shared store ends then. */
export interface RequestEnd {
  once(event: 'close', listener: () => void): unknown;
}

export interface LimitUsage {
  operations: number;
  subscriptions: number;
}

export interface LimitCounts {
  /**
   * Counts a request against its cache's limits: the window must have room for one more
   * operation (a publish takes it now; a subscribe's items are counted as delivered), and a
   * subscribe may not join `concurrentSubscriptions` already waiting. Undefined when admitted.
   * In memory it is counted when called (the promise is settled); a shared store answers once
   * it has counted.
   */
  admit(cache: string, publish: boolean, profile: LimitsProfile, end: RequestEnd): Promise<LimitRefusal | undefined>;
  /** Items delivered: one operation each (they may take the window past the limit). */
  delivered(cache: string, items: number): void;
  /** This second's operations and the subscriptions counted now, summed over the caches (on a shared store: as this replica knows them). */
  usage(): LimitUsage;
  /** The same for every replica: on a shared store read where they are counted (one round trip); in memory `usage()`. */
  gatheredUsage(): Promise<LimitUsage>;
  /** Counts back to zero; `shared`: a shared store's too (the replica that resets, not those that follow it). */
  reset(shared: boolean): void;
}
