import type { Fault, FaultRuleInput } from '../../openapi/generated/control-types.js';
import { defaultCodes, type FaultStatus } from '../documents.js';
import { EmulatorError, errorRegistry, type ErrorCode } from '../errors.js';
import type { RequestFacts } from '../requests.js';
import { randomSeed, seededRandom, type Random } from './random.js';

// A fault rule (openapi/control.yaml FaultRuleInput): which requests it matches, what it does
// to them, how often. The document validates its shape; this file keeps its counters.

export type { FaultRuleInput, FaultStatus };
export type FaultView = Fault;

/** What happens to a request a fault hits. */
export interface FaultEffect {
  status?: FaultStatus;
  code?: ErrorCode;
  message?: string;
  retryAfterSeconds?: number;
  drop?: true;
  delayMs?: number;
}

export { defaultCodes };

export class FaultRule {
  readonly rule: FaultRuleInput;
  delivered = 0;
  matched = 0;
  fired = 0;
  /** False until startAfterMs of clock time has passed. */
  started: boolean;
  endsAtMs: number | undefined;
  private skipLeft: number;
  private remaining: number | undefined;
  private readonly random: Random | undefined;

  constructor(
    readonly id: string,
    input: FaultRuleInput,
    readonly createdAtMs: number,
  ) {
    if (input.code !== undefined && input.status !== undefined && errorRegistry[input.code].status !== input.status) {
      throw new EmulatorError(
        'invalid_body',
        `code '${input.code}' answers ${errorRegistry[input.code].status}, not ${input.status}`,
      );
    }
    // A probability always runs from a seed; a chosen one is shown back so the run replays.
    this.rule =
      input.probability !== undefined && input.seed === undefined ? { ...input, seed: randomSeed() } : { ...input };
    this.random = this.rule.seed !== undefined ? seededRandom(this.rule.seed) : undefined;
    this.skipLeft = input.skip ?? 0;
    this.remaining = input.count;
    this.started = !input.startAfterMs;
  }

  get phase(): 'request' | 'waiting' {
    return this.rule.whileWaiting ? 'waiting' : 'request';
  }

  /** True for rules that let afterItems items through first. */
  get countsDeliveries(): boolean {
    return this.rule.afterItems !== undefined;
  }

  get armed(): boolean {
    return this.started && (this.rule.afterItems === undefined || this.delivered >= this.rule.afterItems);
  }

  get usedUp(): boolean {
    return this.remaining === 0;
  }

  /** Items a matching subscribe response may still carry before the rule arms. */
  get deliveriesLeft(): number {
    return Math.max(0, (this.rule.afterItems ?? 0) - this.delivered);
  }

  matches(facts: RequestFacts): boolean {
    const r = this.rule;
    return (
      (r.operation === undefined || r.operation === 'any' || r.operation === facts.operation) &&
      (r.cache === undefined || r.cache === facts.cache) &&
      (r.topic === undefined || r.topic === facts.topic) &&
      (r.topicPrefix === undefined || facts.topic.startsWith(r.topicPrefix)) &&
      (r.tokenId === undefined || r.tokenId === facts.tokenId)
    );
  }

  /** Decides for one more matching request whether the rule fires: uses a skip, a draw, a count. */
  consider(): boolean {
    if (!this.armed || this.usedUp) return false;
    this.matched += 1;
    if (this.skipLeft > 0) {
      this.skipLeft -= 1;
      return false;
    }
    if (this.random && this.random() >= this.rule.probability!) return false;
    this.fired += 1;
    if (this.remaining !== undefined) this.remaining -= 1;
    return true;
  }

  /** The rule's effect members (status, code, message, retryAfterSeconds, drop, delayMs). */
  effect(): FaultEffect {
    return this.rule;
  }

  /** How the rule is described in log lines: its id and how far it has got. */
  describe(): string {
    const of = this.rule.count !== undefined ? ` of ${this.rule.count}` : '';
    return `rule ${this.id}, firing ${this.fired}${of}`;
  }

  view(): FaultView {
    return {
      id: this.id,
      rule: this.rule,
      armed: this.armed,
      ...(this.countsDeliveries ? { delivered: this.delivered } : {}),
      matched: this.matched,
      fired: this.fired,
      remaining: this.remaining ?? null,
      createdAt: new Date(this.createdAtMs).toISOString(),
      ...(this.endsAtMs !== undefined ? { endsAt: new Date(this.endsAtMs).toISOString() } : {}),
    };
  }
}
