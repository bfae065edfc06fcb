import type { Limits, LimitsInput } from '../../openapi/generated/control-types.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { EmulatorError } from '../errors.js';
import { LIMIT_TIERS, type EmulatorSettings } from '../settings.js';
import type { DecidedBy } from '../exchange.js';
import { describeRequest, requestFields, type Effect, type RequestFacts, type WaitingRequests } from '../requests.js';
import { RateWindow } from './rate-window.js';

// The provider's account limits (service-facts "Limits"), as a profile that can be switched on
// and tuned: operations per second, where a publish is one and each delivered item one more,
// and concurrent subscriptions (subscribe requests waiting), each counted per cache (the
// quotas page's namespace). Exceeding one answers 429, as the
// live service does. The payload limit is the hard --payload-limit, enforced by the core (413).

const OPERATIONS: DecidedBy = { kind: 'limit', limit: 'operations' };
const WAITING_SUBSCRIBERS: DecidedBy = { kind: 'limit', limit: 'waiting-subscribers' };

/** Every member of the document's LimitsInput, set. */
export type LimitsProfile = Required<LimitsInput>;

/** The profile the configuration starts with (and a reset returns to). */
export function limitsProfileOf(settings: EmulatorSettings): LimitsProfile {
  // Off still carries the default plan's figures: switching the limits on at run time uses them.
  const tier = LIMIT_TIERS[settings.limits === 'off' ? 'account' : settings.limits];
  return {
    enabled: settings.limits !== 'off',
    operationsPerSecond: settings.limitOperationsPerSecond ?? tier.operationsPerSecond,
    concurrentSubscriptions: settings.limitConcurrentSubscriptions ?? tier.concurrentSubscriptions,
  };
}

export type LimitsView = Limits;

export class AccountLimits {
  /** The request path checks this before anything else. */
  active: boolean;
  private profile: LimitsProfile;
  /** One window per cache; caches are known (an unknown one is 404 before the limits). */
  private readonly windows = new Map<string, RateWindow>();

  constructor(
    initial: LimitsProfile,
    private readonly payloadBytes: number,
    private readonly clock: Clock,
    private readonly waiting: WaitingRequests,
    private readonly log: FastifyBaseLogger,
  ) {
    this.profile = { ...initial };
    this.active = initial.enabled;
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

  set(change: LimitsInput): LimitsView {
    this.profile = { ...this.profile, ...change };
    this.active = this.profile.enabled;
    this.log.info({ limits: this.profile }, `account limits ${this.profile.enabled ? 'on' : 'off'}`);
    return this.view();
  }

  view(): LimitsView {
    return {
      ...this.profile,
      payloadBytes: this.payloadBytes,
      // Summed over the caches; each cache has its own limits. Windows share their boundaries.
      usage: {
        windowStartedAt: new Date(Math.max(0, this.clock.now() - (this.clock.now() % 1000))).toISOString(),
        operations: [...this.windows.values()].reduce((sum, window) => sum + window.operations, 0),
        subscriptions: this.waiting.size,
      },
    };
  }

  /** Counts the request against the limits; the 429 the live service would answer when one is exceeded. */
  admit(facts: RequestFacts): Effect | undefined {
    const { operationsPerSecond, concurrentSubscriptions } = this.profile;
    const window = this.window(facts.cache);
    const operations = window.operations;
    const publish = facts.operation === 'publish';
    if (publish ? operations + 1 > operationsPerSecond : operations >= operationsPerSecond)
      return this.refuse(
        facts,
        `${operations} operations in this second (limit ${operationsPerSecond} per second)`,
        window.retryAfterSeconds(),
        OPERATIONS,
      );
    if (publish) {
      window.add(1);
      return undefined;
    }
    const waiting = this.waitingOn(facts.cache);
    if (waiting >= concurrentSubscriptions)
      return this.refuse(
        facts,
        `${waiting} concurrent subscriptions (limit ${concurrentSubscriptions})`,
        1,
        WAITING_SUBSCRIBERS,
      );
    return undefined;
  }

  /** Each delivered item is one more operation of its cache (it may take the window past the limit). */
  delivered(cache: string, items: number): void {
    if (items > 0) this.window(cache).add(items);
  }

  /** Counters back to zero and the profile back to `profile` (the emulator's reset). */
  reset(profile: LimitsProfile): void {
    this.profile = { ...profile };
    this.active = profile.enabled;
    this.windows.clear();
  }

  private refuse(facts: RequestFacts, why: string, retryAfterSeconds: number, decidedBy: DecidedBy): Effect {
    this.log.info(
      { ...requestFields(facts), why, retryAfterSeconds },
      `limit: ${describeRequest(facts)} answered 429 limit_exceeded (${why})`,
    );
    return {
      decidedBy,
      error: new EmulatorError('limit_exceeded', `Account limits were exceeded: ${why}.`, {
        'retry-after': String(retryAfterSeconds),
      }),
    };
  }
}
