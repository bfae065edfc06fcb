import type { Clock } from '../clock.js';
import type { WaitingRequests } from '../requests.js';
import type { LimitsProfile } from './account-limits.js';
import type { LimitCounts, LimitRefusal, LimitUsage } from './counts.js';
import { RateWindow } from './rate-window.js';

// The limits counted in this process: a one-second window of the clock per cache, and the
// subscribes waiting on the cache's topics (the waiting registry is the count). Counted when
// asked, with nothing to wait for.

export class LocalLimitCounts implements LimitCounts {
  /** One window per cache; caches are known (an unknown one is 404 before the limits). */
  private readonly windows = new Map<string, RateWindow>();

  constructor(
    private readonly clock: Clock,
    private readonly waiting: WaitingRequests,
  ) {}

  // The seam's shape (a shared store answers later); nothing is awaited: counted when called.
  async admit(cache: string, publish: boolean, profile: LimitsProfile): Promise<LimitRefusal | undefined> {
    const window = this.window(cache);
    const operations = window.operations;
    if (operations + 1 > profile.operationsPerSecond)
      return { limit: 'operations', count: operations, retryAfterSeconds: window.retryAfterSeconds() };
    if (publish) {
      window.add(1);
      return undefined;
    }
    const waiting = this.waitingOn(cache);
    if (waiting >= profile.concurrentSubscriptions)
      return { limit: 'subscriptions', count: waiting, retryAfterSeconds: 1 };
    return undefined;
  }

  delivered(cache: string, items: number): void {
    this.window(cache).add(items);
  }

  usage(): LimitUsage {
    let operations = 0;
    for (const window of this.windows.values()) operations += window.operations;
    return { operations, subscriptions: this.waiting.size };
  }

  async gatheredUsage(): Promise<LimitUsage> {
    return this.usage();
  }

  reset(): void {
    this.windows.clear();
  }

  private window(cache: string): RateWindow {
    let window = this.windows.get(cache);
    if (window === undefined) this.windows.set(cache, (window = new RateWindow(this.clock)));
    return window;
  }

  /** Subscribe requests waiting on the cache's topics (counted only while the limits are on). */
  private waitingOn(cache: string): number {
    let count = 0;
    for (const entry of this.waiting) if (entry.facts.cache === cache) count += 1;
    return count;
  }
}
