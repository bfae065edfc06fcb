import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { EmulatorError } from '../errors.js';
import { LIMIT_TIERS, type EmulatorSettings } from '../settings.js';
import { describeRequest, requestFields } from '../faults/effects.js';
import type { RequestFacts } from '../faults/rule.js';
import type { WaitingRequests } from '../faults/waiting-requests.js';
import { RateWindow } from './rate-window.js';

// The provider's account limits (service-facts "Limits"), as a profile that can be switched on
// and tuned: operations per second, where a publish is one and each delivered item one more,
// and concurrent subscriptions (subscribe requests waiting). Exceeding one answers 429, as the
// live service does. The payload limit is the hard --payload-limit, enforced by the core (413).

export interface LimitsProfile {
  enabled: boolean;
  operationsPerSecond: number;
  concurrentSubscriptions: number;
}

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

export interface LimitsView extends LimitsProfile {
  payloadBytes: number;
  usage: { windowStartedAt: string; operations: number; subscriptions: number };
}

export class AccountLimits {
  /** The request path checks this before anything else. */
  active: boolean;
  private profile: LimitsProfile;
  private readonly window: RateWindow;

  constructor(
    initial: LimitsProfile,
    private readonly payloadBytes: number,
    clock: Clock,
    private readonly waiting: WaitingRequests,
    private readonly log: FastifyBaseLogger,
  ) {
    this.profile = { ...initial };
    this.active = initial.enabled;
    this.window = new RateWindow(clock);
  }

  set(change: Partial<LimitsProfile>): LimitsView {
    this.profile = { ...this.profile, ...change };
    this.active = this.profile.enabled;
    this.log.info({ limits: this.profile }, `account limits ${this.profile.enabled ? 'on' : 'off'}`);
    return this.view();
  }

  view(): LimitsView {
    return {
      ...this.profile,
      payloadBytes: this.payloadBytes,
      usage: {
        windowStartedAt: new Date(Math.max(0, this.window.startedAt)).toISOString(),
        operations: this.window.operations,
        subscriptions: this.waiting.size,
      },
    };
  }

  /** Counts the request against the limits, or throws the 429 the live service would answer. */
  admit(facts: RequestFacts): void {
    const { operationsPerSecond, concurrentSubscriptions } = this.profile;
    const operations = this.window.operations;
    if (facts.operation === 'publish') {
      if (operations + 1 > operationsPerSecond) this.refuse(facts, `${operations} operations in this second (limit ${operationsPerSecond} per second)`, this.window.retryAfterSeconds());
      this.window.add(1);
      return;
    }
    if (operations >= operationsPerSecond) this.refuse(facts, `${operations} operations in this second (limit ${operationsPerSecond} per second)`, this.window.retryAfterSeconds());
    if (this.waiting.size >= concurrentSubscriptions) this.refuse(facts, `${this.waiting.size} concurrent subscriptions (limit ${concurrentSubscriptions})`, 1);
  }

  /** Each delivered item is one more operation (it may take the window past the limit). */
  delivered(items: number): void {
    if (items > 0) this.window.add(items);
  }

  /** Counters back to zero and the profile back to `profile` (the emulator's reset). */
  reset(profile: LimitsProfile): void {
    this.profile = { ...profile };
    this.active = profile.enabled;
    this.window.reset();
  }

  private refuse(facts: RequestFacts, why: string, retryAfterSeconds: number): never {
    this.log.info({ ...requestFields(facts), why, retryAfterSeconds }, `limit: ${describeRequest(facts)} answered 429 limit_exceeded (${why})`);
    throw new EmulatorError('limit_exceeded', `Account limits were exceeded: ${why}.`, { 'retry-after': String(retryAfterSeconds) });
  }
}
