import type { Limits, LimitsInput } from '../../openapi/generated/control-types.js';
import type { Clock } from '../clock.js';
import { EmulatorError } from '../errors.js';
import { LIMIT_TIERS, type EmulatorSettings } from '../settings.js';
import type { DecidedBy } from '../exchange.js';
import { describeRequest, requestFields, type Effect, type RequestFacts } from '../requests.js';
import type { LimitCounts, LimitRefusal, LimitsProfile, LimitUsage, RequestEnd } from './counts.js';
import type { Log } from '../logging.js';

// The provider's account limits (service-facts "Limits"), as a profile that can be switched on
// and tuned: operations per second, where a publish is one and each delivered item one more,
// and concurrent subscriptions (subscribe requests waiting), each counted per cache (the
// quotas page's namespace). Exceeding one answers 429, as the live service does. The counting,
// in this process or for every replica on a shared store, is behind `LimitCounts` (counts.ts).
// The payload limit is the hard --payload-limit, enforced by the core (413).

const OPERATIONS: DecidedBy = { kind: 'limit', limit: 'operations' };
/** What decided a refusal for waiting subscribers: the concurrent-subscriptions limit, or --max-waiting (service/subscribe.ts). */
export const WAITING_SUBSCRIBERS: DecidedBy = { kind: 'limit', limit: 'waiting-subscribers' };

/** Every member of the document's LimitsInput, set. */
export type { LimitsProfile } from './counts.js';

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

  constructor(
    initial: LimitsProfile,
    private readonly payloadBytes: number,
    private readonly clock: Clock,
    /** In this process, or every replica's on a shared store. */
    private readonly counts: LimitCounts,
    private readonly log: Log,
  ) {
    this.profile = { ...initial };
    this.active = initial.enabled;
  }

  set(change: LimitsInput): LimitsView {
    this.profile = { ...this.profile, ...change };
    this.active = this.profile.enabled;
    this.log.info({ limits: this.profile }, `account limits ${this.profile.enabled ? 'on' : 'off'}`);
    return this.view();
  }

  /** The profile and its usage (on a shared store: as this replica knows it). */
  view(usage: LimitUsage = this.counts.usage()): LimitsView {
    const now = this.clock.now();
    return {
      ...this.profile,
      payloadBytes: this.payloadBytes,
      // Summed over the caches; each cache has its own limits. Windows share their boundaries.
      usage: { windowStartedAt: new Date(Math.max(0, now - (now % 1000))).toISOString(), ...usage },
    };
  }

  /** The profile and every replica's usage on a shared store (read there); this process's in memory. */
  async gatheredView(): Promise<LimitsView> {
    return this.view(await this.counts.gatheredUsage());
  }

  /**
   * Counts the request against the limits; the 429 the live service would answer when one is
   * exceeded. Counted when called in memory; a shared store counts for every replica (one round
   * trip). `end`: the end of the request's answer (a shared store's concurrent subscription ends then).
   */
  async admit(facts: RequestFacts, end: RequestEnd): Promise<Effect | undefined> {
    // A subscribe counts as a subscription (its items as operations once delivered); anything else is one operation.
    const refusal = await this.counts.admit(facts.cache, facts.operation !== 'subscribe', this.profile, end);
    return refusal && this.refuse(facts, refusal);
  }

  /** Each delivered item is one more operation of its cache (it may take the window past the limit). */
  delivered(cache: string, items: number): void {
    if (items > 0) this.counts.delivered(cache, items);
  }

  /**
   * Counters back to zero and the profile back to `profile` (the emulator's reset). `shared`:
   * the shared store's counters too; false on a replica applying another replica's reset.
   */
  reset(profile: LimitsProfile, shared = true): void {
    this.profile = { ...profile };
    this.active = profile.enabled;
    this.counts.reset(shared);
  }

  private refuse(facts: RequestFacts, { limit, count, retryAfterSeconds }: LimitRefusal): Effect {
    const why =
      limit === 'operations'
        ? `${count} operations in this second (limit ${this.profile.operationsPerSecond} per second)`
        : `${count} concurrent subscriptions (limit ${this.profile.concurrentSubscriptions})`;
    this.log.info(
      { ...requestFields(facts), why, retryAfterSeconds },
      `limit: ${describeRequest(facts)} answered 429 limit_exceeded (${why})`,
    );
    return {
      decidedBy: limit === 'operations' ? OPERATIONS : WAITING_SUBSCRIBERS,
      error: new EmulatorError('limit_exceeded', `Account limits were exceeded: ${why}.`, {
        'retry-after': String(retryAfterSeconds),
      }),
    };
  }
}
