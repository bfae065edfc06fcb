import type { ExchangeFacts } from '../exchange.js';

// What the metrics count, as plain numbers: the request path and the topics add to them (an
// addition and a map lookup), and a scrape reads them. prom-client is loaded only by a scrape
// (exposition.ts), so a run that never scrapes never pays for loading it (~40-90 ms at start).

/**
 * What one answered request adds to the counters: the exchange's own record (exchange.ts), read
 * where it is, so counting a request copies nothing.
 */
export type AnsweredRequest = Pick<ExchangeFacts, 'plane' | 'operation' | 'items' | 'discontinuity' | 'delivered'> & {
  status: number;
};

export interface RequestCount {
  labels: { plane: string; operation: string; status: string };
  count: number;
}

/** A count with the key it is found by. */
interface KeyedCount extends RequestCount {
  readonly plane: string;
  readonly operation: string;
  readonly status: number;
}

/** Upper bounds (seconds) of the wake-up latency histogram's buckets. */
export const WAKE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1] as const;
/** Upper bounds (seconds) of the store round-trip histogram's buckets (a Redis script call). */
export const STORE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 1] as const;

/** One histogram's observations: per bucket (not cumulative); those above the last bound count only in `count`. */
export class Observations {
  readonly buckets: number[];
  sum = 0;
  count = 0;

  constructor(readonly bounds: readonly number[]) {
    this.buckets = bounds.map(() => 0);
  }

  observe(seconds: number): void {
    const i = this.bounds.findIndex((bound) => seconds <= bound);
    if (i >= 0) this.buckets[i]! += 1;
    this.sum += seconds;
    this.count += 1;
  }
}

export class MetricsRecorder {
  /** Every (plane, operation, status) counted so far, in the order first seen. */
  readonly requests: RequestCount[] = [];
  // The same counts found by plane, then operation, then status: no key string built per request.
  private readonly counts = {
    service: new Map<string, Map<number, KeyedCount>>(),
    control: new Map<string, Map<number, KeyedCount>>(),
  };
  private last: KeyedCount | undefined;
  publishes = 0;
  deliveries = 0;
  discontinuities = 0;
  faultsFired = 0;
  readonly wake = new Observations(WAKE_BUCKETS);
  /** Store round trips by script (create, publish, changePage, reset, restore); only a shared store has them. */
  readonly storeRoundTrips = new Map<string, Observations>();

  answered(request: AnsweredRequest): void {
    const operation = request.operation ?? 'none';
    const { plane, status } = request;
    // Most answers are like the one before (a publisher's 204s): that entry is found without a lookup.
    let entry = this.last;
    if (entry === undefined || entry.status !== status || entry.operation !== operation || entry.plane !== plane) {
      const byOperation = this.counts[plane];
      let byStatus = byOperation.get(operation);
      if (byStatus === undefined) byOperation.set(operation, (byStatus = new Map<number, KeyedCount>()));
      entry = byStatus.get(status);
      if (entry === undefined) {
        entry = { labels: { plane, operation, status: String(status) }, count: 0, plane, operation, status };
        byStatus.set(status, entry);
        this.requests.push(entry);
      }
      this.last = entry;
    }
    entry.count += 1;
    // A kept publish answers 204 on HTTP and OK (200) on gRPC; a stream's record counts every item it delivered.
    if (operation === 'publish' && status >= 200 && status < 300) this.publishes += 1;
    this.deliveries += request.delivered ?? request.items.length;
    if (request.discontinuity !== null) this.discontinuities += 1;
  }

  /** A request a fault rule or chaos decided. */
  faultFired(): void {
    this.faultsFired += 1;
  }

  /** A subscriber a publish woke, `seconds` after that publish. */
  woke(seconds: number): void {
    this.wake.observe(seconds);
  }

  /** One call to the store (a Redis script) answered after `seconds`. */
  storeRoundTrip(script: string, seconds: number): void {
    let observations = this.storeRoundTrips.get(script);
    if (!observations) this.storeRoundTrips.set(script, (observations = new Observations(STORE_BUCKETS)));
    observations.observe(seconds);
  }
}
