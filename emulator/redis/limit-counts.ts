import type { Clock } from '../clock.js';
import type { LimitsProfile } from '../limits/account-limits.js';
import type { LimitCounts, LimitRefusal, LimitUsage, RequestEnd } from '../limits/counts.js';
import type { ScriptedRedis } from './scripts.js';
import { unavailable } from './unavailable.js';
import type { Log } from '../logging.js';

// The account limits counted in Redis for every replica with the same store and prefix:
// one operations window per cache (the emulator clock's second, not Redis's), and the
// concurrent subscriptions of every replica per cache, each replica's count in one field of
// the cache's hash. A replica's count is alive while its entry in the alive sorted set
// (`<prefix>alive`: replica -> until when, on Redis's clock) is: refreshed every few seconds
// while it holds subscriptions, so the counts of a replica that died (SIGKILL) stop counting at
// most ALIVE_MS after its last refresh. The same heartbeat writes this replica's
// own counts again, so a release lost with the connection (or Redis restarted empty) is put
// right within HEARTBEAT_MS. An admission is one script (one round trip).

const WINDOW_MS = 1000;
const ALIVE_MS = 10_000;
const HEARTBEAT_MS = 3000;
const CLOSE_MS = 500;

export class RedisLimitCounts implements LimitCounts {
  /** The shared window of each cache as this replica last saw it (the usage it shows). */
  private readonly seen = new Map<string, { window: number; count: number }>();
  /** Subscriptions this replica holds per cache (admitted, not yet released); a cache at 0 until the heartbeat writes it. */
  private readonly held = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | undefined;
  /** The alive sorted set: replica -> until when its counts count (Redis's clock). */
  private readonly alive: string;

  constructor(
    /** The store's command connection, with the scripts defined (scripts.ts). */
    private readonly redis: ScriptedRedis,
    private readonly prefix: string,
    private readonly replica: string,
    private readonly caches: readonly string[],
    private readonly clock: Clock,
    private readonly log: Log,
    /** The store's round-trip observer (metrics), when one listens. */
    private readonly roundTrips: () => ((call: string, latencyMs: number) => void) | undefined,
  ) {
    this.alive = `${prefix}alive`;
  }

  async admit(
    cache: string,
    publish: boolean,
    profile: LimitsProfile,
    end: RequestEnd,
  ): Promise<LimitRefusal | undefined> {
    const now = this.clock.now();
    const observer = this.roundTrips();
    const started = observer && performance.now();
    let answer: [number, number, number];
    try {
      answer = (await this.redis.admitLimit(
        this.windowKey(cache),
        this.subscriptionsKey(cache),
        this.alive,
        now - (now % WINDOW_MS),
        WINDOW_MS,
        profile.operationsPerSecond,
        publish ? '1' : '0',
        profile.concurrentSubscriptions,
        this.replica,
        ALIVE_MS,
      )) as [number, number, number];
    } catch {
      throw unavailable();
    }
    if (observer) observer('admitLimit', performance.now() - started!);
    const [verdict, count, window] = answer.map(Number) as [number, number, number];
    if (verdict === 1) {
      this.saw(cache, window, count);
      const retryAfterSeconds = Math.max(1, Math.ceil((window + WINDOW_MS - this.clock.now()) / 1000));
      return { limit: 'operations', count, retryAfterSeconds };
    }
    if (verdict === 2) return { limit: 'subscriptions', count, retryAfterSeconds: 1 };
    this.saw(cache, window, count);
    if (!publish) this.hold(cache, end);
    return undefined;
  }

  delivered(cache: string, items: number): void {
    const now = this.clock.now();
    this.redis
      .deliveredLimit(this.windowKey(cache), now - (now % WINDOW_MS), WINDOW_MS, items)
      .then((answer) => {
        const [count, window] = answer as [number, number];
        this.saw(cache, Number(window), Number(count));
      })
      .catch((error: Error) => this.log.debug({ err: error.message }, 'redis limits: counting a delivery failed'));
  }

  /** The shared operations of this second as last seen here; the subscriptions this replica holds. */
  usage(): LimitUsage {
    const now = this.clock.now();
    const current = now - (now % WINDOW_MS);
    let operations = 0;
    for (const { window, count } of this.seen.values()) if (window === current) operations += count;
    let subscriptions = 0;
    for (const count of this.held.values()) subscriptions += count;
    return { operations, subscriptions };
  }

  /** Every replica's usage: this second's operations of the shared windows, and the live replicas' subscriptions. */
  async gatheredUsage(): Promise<LimitUsage> {
    const now = this.clock.now();
    const keys = this.caches.flatMap((cache) => [this.windowKey(cache), this.subscriptionsKey(cache)]);
    let answer: [number, number];
    try {
      const start = now - (now % WINDOW_MS);
      answer = (await this.redis.usageLimit(1 + keys.length, this.alive, ...keys, start, WINDOW_MS)) as [
        number,
        number,
      ];
    } catch {
      throw unavailable();
    }
    const [operations, subscriptions] = answer.map(Number) as [number, number];
    return { operations, subscriptions };
  }

  /** The shared windows start again (subscriptions end as their subscribes are answered). */
  reset(shared: boolean): void {
    this.seen.clear();
    if (!shared) return;
    this.redis
      .del(...this.caches.map((cache) => this.windowKey(cache)))
      .catch((error: Error) => this.log.warn({ err: error.message }, 'redis limits: reset failed'));
  }

  /** This replica's subscriptions stop counting (a clean shutdown). */
  async close(): Promise<void> {
    if (this.heartbeat === undefined) return;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    // Bounded: a stop does not wait on a Redis that has stopped answering.
    const gone = this.redis.keepAlive(this.alive, this.replica, ALIVE_MS, '0').catch(() => undefined);
    await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, CLOSE_MS).unref())]);
  }

  private saw(cache: string, window: number, count: number): void {
    this.seen.set(cache, { window, count });
  }

  // One subscription held until the request's answer ends, however it ends.
  private hold(cache: string, end: RequestEnd): void {
    this.held.set(cache, (this.held.get(cache) ?? 0) + 1);
    if (this.heartbeat === undefined) {
      this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
      this.heartbeat.unref();
    }
    end.once('close', () => {
      this.held.set(cache, this.held.get(cache)! - 1);
      this.redis
        .releaseLimit(this.subscriptionsKey(cache), this.replica)
        .catch((error: Error) => this.log.debug({ err: error.message }, 'redis limits: a release failed'));
    });
  }

  // Still alive, with these counts; stops once nothing is held (and the zeros are written).
  private beat(): void {
    const pipeline = this.redis.pipeline();
    for (const [cache, count] of this.held) {
      if (count > 0) pipeline.hset(this.subscriptionsKey(cache), this.replica, count);
      else {
        pipeline.hdel(this.subscriptionsKey(cache), this.replica);
        this.held.delete(cache);
      }
    }
    void (pipeline as unknown as ScriptedRedis).keepAlive(this.alive, this.replica, ALIVE_MS, '1');
    if (this.held.size === 0) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
    pipeline.exec().catch((error: Error) => this.log.debug({ err: error.message }, 'redis limits: heartbeat failed'));
  }

  private windowKey(cache: string): string {
    return `${this.prefix}ops:${JSON.stringify(cache)}`;
  }

  private subscriptionsKey(cache: string): string {
    return `${this.prefix}subs:${JSON.stringify(cache)}`;
  }
}
