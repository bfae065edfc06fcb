import type { Fault, FaultRuleInput } from '../../openapi/generated/control-types.js';
import { defaultCodes, type FaultStatus } from '../documents.js';
import { EmulatorError, errorRegistry, type ErrorCode } from '../errors.js';
import type { RequestFacts } from '../requests.js';
import { randomSeed, seededRandom, type Random } from './random.js';

// A fault rule (openapi/control.yaml FaultRuleInput): which requests it matches, what it does
// to them, how often. The document validates its shape; this file keeps its counters.

/** A rule's counters as the ledger holds them. */
export interface RuleCounts {
  readonly matched: number;
  readonly fired: number;
  readonly delivered: number;
}

/** What the ledger decided for one more matching request of a counted rule. */
export interface Consideration extends RuleCounts {
  /**
   * `fired`: the rule fires on this request; `passed`: counted as a match (a skip, or a draw
   * that missed) without firing; `refused`: not counted (used up, or not armed yet).
   */
  readonly outcome: 'fired' | 'passed' | 'refused';
}

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

/** A rule and how far it has got, as plain data (a snapshot's fault). */
export interface SavedFault {
  id: string;
  rule: FaultRuleInput;
  started: boolean;
  matched: number;
  fired: number;
  delivered: number;
  createdAtMs: number;
  endsAtMs?: number;
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
  private random: Random | undefined;
  /** The next number of `random`, drawn ahead while a shared ledger decides whether it is used. */
  private nextDraw: number | undefined;

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
    this.started = !input.startAfterMs;
  }

  /** A saved rule, where it left off: its skips, count and random draws continue from there. */
  static restore(saved: SavedFault): FaultRule {
    const rule = new FaultRule(saved.id, saved.rule, saved.createdAtMs);
    const skip = rule.rule.skip ?? 0;
    rule.started = saved.started;
    rule.endsAtMs = saved.endsAtMs;
    rule.matched = saved.matched;
    rule.fired = saved.fired;
    rule.delivered = saved.delivered;
    // consider() draws once per matching request past the skips.
    if (rule.rule.seed !== undefined) rule.random = seededRandom(rule.rule.seed, Math.max(0, saved.matched - skip));
    return rule;
  }

  save(): SavedFault {
    return {
      id: this.id,
      rule: this.rule,
      started: this.started,
      matched: this.matched,
      fired: this.fired,
      delivered: this.delivered,
      createdAtMs: this.createdAtMs,
      ...(this.endsAtMs !== undefined ? { endsAtMs: this.endsAtMs } : {}),
    };
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
    return this.rule.count !== undefined && this.fired >= this.rule.count;
  }

  /** Whether its decisions depend on how many requests it saw (skips, a count, "after N items"): shared by every replica. */
  get counted(): boolean {
    const r = this.rule;
    return r.count !== undefined || (r.skip ?? 0) > 0 || r.afterItems !== undefined;
  }

  /** Items a matching subscribe response may still carry before the rule arms. */
  get deliveriesLeft(): number {
    return Math.max(0, (this.rule.afterItems ?? 0) - this.delivered);
  }

  matches(facts: RequestFacts): boolean {
    const r = this.rule;
    return (
      (r.operation === undefined || r.operation === 'any' || r.operation === facts.operation) &&
      (r.protocol === undefined || r.protocol === facts.protocol) &&
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
    if (this.matched <= (this.rule.skip ?? 0)) return false;
    const draw = this.draws();
    this.nextDraw = undefined;
    if (!draw) return false;
    this.fired += 1;
    return true;
  }

  /** Whether the next draw lets the rule fire (true without a probability); drawn once, used by `consider` or `considered`. */
  draws(): boolean {
    if (!this.random) return true;
    this.nextDraw ??= this.random();
    return this.nextDraw < this.rule.probability!;
  }

  /** What a shared ledger decided for one matching request: its counts, and the draw used once past the skips. */
  considered(consideration: Consideration): boolean {
    if (consideration.outcome !== 'refused' && consideration.matched > (this.rule.skip ?? 0)) this.nextDraw = undefined;
    this.follow(consideration);
    return consideration.outcome === 'fired';
  }

  /** The ledger's counts (every replica's): they only grow, so a late or repeated one changes nothing. */
  follow(counts: RuleCounts): void {
    this.matched = Math.max(this.matched, counts.matched);
    this.fired = Math.max(this.fired, counts.fired);
    this.delivered = Math.max(this.delivered, counts.delivered);
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
      remaining: this.rule.count !== undefined ? Math.max(0, this.rule.count - this.fired) : null,
      createdAt: new Date(this.createdAtMs).toISOString(),
      ...(this.endsAtMs !== undefined ? { endsAt: new Date(this.endsAtMs).toISOString() } : {}),
    };
  }
}
