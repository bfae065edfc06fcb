// The suite's timings, derived from what it measured of the endpoint: every publish's round
// trip is observed, and each wait the rules make (how often to nudge a waiting first request,
// how long a read of messages already published may take, what counts as "at once") is a
// multiple of a high round trip of late, never less than a floor that suits a quiet loopback.
// Over a slow link or on a busy machine the round trips grow, and the waits with them. The
// endpoint's own long-poll timeout is learnt from the empty answers it gives, and a nudge comes
// well within it, so that a waiting first request hears one before it gives up.
import type { Exchange } from './exchange.js';

/** How many recent round trips are kept. */
const WINDOW = 50;
/** Floors: what the waits are on a quiet loopback, where round trips are a millisecond. */
export const NUDGE_FLOOR_MS = 300;
export const SETTLE_FLOOR_MS = 2000;
export const AT_ONCE_FLOOR_MS = 1500;
/** The least interval between nudges, whatever the long-poll timeout. */
export const NUDGE_LEAST_MS = 50;

export class Pace {
  private readonly recent: number[] = [];
  private shortestEmptyMs = Number.POSITIVE_INFINITY;

  /**
   * Takes a publish's round trip (any answer: it came back without waiting on anything), and
   * the duration of a subscribe answered 200 with no elements (the endpoint's long-poll timeout).
   */
  observe(exchange: Exchange): void {
    if (exchange.status === undefined) return;
    if (exchange.operation === 'publish') {
      this.recent.push(exchange.durationMs);
      if (this.recent.length > WINDOW) this.recent.shift();
    } else if (exchange.operation === 'subscribe' && exchange.status === 200 && isEmpty(exchange)) {
      this.shortestEmptyMs = Math.min(this.shortestEmptyMs, exchange.durationMs);
    }
  }

  /** The shortest wait the endpoint answered empty after (Infinity before any). */
  get longPollTimeoutMs(): number {
    return this.shortestEmptyMs;
  }

  /** The 90th percentile of the recent round trips (0 before any was measured). */
  get roundTripMs(): number {
    if (this.recent.length === 0) return 0;
    const sorted = [...this.recent].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))]!;
  }

  /**
   * How long to wait on a first request before publishing again to wake it: a few round trips,
   * and at most a third of the endpoint's long-poll timeout once one was seen.
   */
  get nudgeEveryMs(): number {
    const fromRoundTrips = Math.max(NUDGE_FLOOR_MS, 4 * this.roundTripMs);
    return Math.max(NUDGE_LEAST_MS, Math.min(fromRoundTrips, Math.floor(this.shortestEmptyMs / 3)));
  }

  /** How long a read of messages that were all published before it may take: past it, there are no more. */
  get settleMs(): number {
    return Math.max(SETTLE_FLOOR_MS, 20 * this.roundTripMs);
  }

  /** An answer within this came back without waiting for a message. */
  get atOnceMs(): number {
    return Math.max(AT_ONCE_FLOOR_MS, 10 * this.roundTripMs);
  }
}

/** A subscribe answer `{"items": []}`: nothing arrived before the endpoint's long-poll timeout. */
function isEmpty({ json }: Exchange): boolean {
  const items = typeof json === 'object' && json !== null ? (json as { items?: unknown }).items : undefined;
  return Array.isArray(items) && items.length === 0;
}
