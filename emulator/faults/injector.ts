import type { Clock } from '../clock.js';
import {
  describeRequest,
  requestFields,
  type Effect,
  type RequestFacts,
  type WaitingRequest,
  type WaitingRequests,
} from '../requests.js';
import { Chaos, type ChaosInput, type ChaosView, type SavedChaos } from './chaos.js';
import { Delays } from './delay.js';
import { MomentoLocalFaults } from './momento-local.js';
import type { DeliveryWatch } from './deliveries.js';
import { describeEffect, effectOf, withoutDelay } from './effects.js';
import type { FaultRule, FaultEffect, FaultRuleInput, FaultView, SavedFault } from './rule.js';
import { FaultRules } from './rule-set.js';
import type { RuleCounts, SharedFirings } from './shared-firings.js';
import type { Log } from '../logging.js';

// The fault rules and chaos decide what happens to a service request at three points: before
// the handler (request rules, chaos), while a subscribe waits ("while waiting" rules) and as a
// subscribe answer leaves ("after N items" rules). They decide plain effects; service/effects.ts
// applies them for every door, and service/subscription.ts gates a subscription's reads. The request path reads `active` first: with no rule and
// no chaos, nothing else here runs. On a shared store a counted rule (count, skips, "after N
// items") asks the replicas' one ledger (shared-firings.ts) whether it fires: only requests it
// matches wait for that answer. The deciders answer a promise in every backend (their callers
// await already, and only while a rule or chaos is on); in memory the deciding itself is done
// when they are called. Which rules there are, and when each starts and ends, is rule-set.ts.

/** What the faults decided for one request before its handler. */
export interface FaultDecision {
  readonly effect?: Effect;
  /** Chaos drew a page change for the request's topic: why (admission changes the page, then the request goes on). */
  readonly pageChange?: string;
  /** The "after N items" rules this subscribe counts towards. */
  readonly deliveries?: DeliveryWatch;
}

const NO_DECISION: FaultDecision = {};

export class FaultInjector {
  /** Any rule or chaos: the request path checks this before anything else. */
  active = false;
  private readonly rules: FaultRules;
  /** Requests a fault holds for real time: a reset or a stop answers them. */
  readonly delays: Delays;
  /** momento-local's fault metadata on gRPC calls: its counts per request-id, forgotten on reset. */
  readonly momentoLocal = new MomentoLocalFaults();
  private chaos: Chaos | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly log: Log,
    private readonly waiting: WaitingRequests,
    private readonly shared?: SharedFirings,
    /** The most requests delays may hold at once (--max-waiting). */
    maxHeld?: number,
  ) {
    this.delays = new Delays(maxHeld);
    this.rules = new FaultRules(clock, log, shared);
    this.rules.onStart = (rule) => {
      if (rule.phase !== 'waiting') return;
      for (const entry of this.waiting) if (rule.matches(entry.facts)) this.watch(rule, entry);
    };
    this.rules.onChange = () => this.refresh();
    if (shared) shared.onCounts = (id, counts) => this.counted(id, counts);
  }

  /** Adds a rule (rule-set.ts: `id` and `createdAtMs` come from another replica that added it). */
  add(input: FaultRuleInput, id?: string, createdAtMs?: number): FaultView {
    return this.rules.add(input, id, createdAtMs).view();
  }

  get(id: string): FaultView {
    return this.rules.require(id).view();
  }

  list(): FaultView[] {
    return this.rules.list();
  }

  /** Rules that ended by themselves (count used up, duration over), newest first, until cleared. */
  ended(): FaultView[] {
    return this.rules.ended();
  }

  remove(id: string, why = 'removed through the control plane'): FaultView {
    const rule = this.rules.require(id);
    this.rules.drop(rule, why);
    return rule.view();
  }

  clear(): number {
    return this.rules.clear();
  }

  startChaos(input: ChaosInput): ChaosView {
    this.chaos = new Chaos(input);
    this.refresh();
    this.log.info({ chaos: this.chaos.view() }, `chaos started with seed ${input.seed}`);
    return this.chaos.view();
  }

  stopChaos(): ChaosView {
    const last = this.chaos?.view();
    if (this.chaos) this.log.info({ chaos: last }, `chaos with seed ${this.chaos.seed} stopped`);
    this.chaos = undefined;
    this.refresh();
    return { ...last, enabled: false };
  }

  chaosView(): ChaosView {
    return this.chaos?.view() ?? { enabled: false };
  }

  /**
   * Before the handler: the first request rule that fires, else chaos, decides an effect (a
   * status, a drop, a delay); a subscribe that "after N items" rules count gets their watch.
   * Decided when called (in memory nothing is awaited); a counted rule on a shared ledger waits
   * for its answer, then the rules after it are considered (a Map's iterator survives the wait).
   */
  async decide(facts: RequestFacts): Promise<FaultDecision> {
    let counting: FaultRule[] | undefined;
    for (const rule of this.rules) {
      if (rule.phase !== 'request' || !rule.matches(facts)) continue;
      if (rule.started && !rule.armed) {
        (counting ??= []).push(rule);
        continue;
      }
      if (this.shared && rule.counted) {
        if (await this.firesOnLedger(this.shared, rule)) return this.hit(rule, facts);
        continue;
      }
      if (this.considerHere(rule)) return this.hit(rule, facts);
    }
    return this.chaosOrWatch(facts, counting);
  }

  // The ledger said this request fires. The rule may have been dropped here meanwhile: by hand or
  // by a reset (it no longer fires), or because the ledger's counts, which come over pub/sub and
  // may overtake the verdict on the command connection, used it up, counting this very firing
  // (the firing stands: dropping it would leave a `count: 3` rule answering 3 counted, 2 fired).
  private stillFires(rule: FaultRule): boolean {
    return this.rules.has(rule) || rule.usedUp;
  }

  /**
   * A counted rule on a shared store: whether the replicas' ledger lets it fire (it never
   * rejects: out of reach, the rule does not fire), and the request it fires on is still
   * `wanted`. When it does not fire here it may be used up now (on another replica).
   */
  private async firesOnLedger(shared: SharedFirings, rule: FaultRule, wanted = () => true): Promise<boolean> {
    const counts = await shared.consider(rule, rule.draws());
    if (rule.considered(counts) && wanted() && this.stillFires(rule)) return true;
    this.rules.fired(rule);
    return false;
  }

  private hit(rule: FaultRule, facts: RequestFacts): FaultDecision {
    const effect = rule.effect();
    this.logEffect(effect, facts, { fault: rule.id }, rule.describe());
    this.rules.fired(rule);
    return { effect: effectOf(effect, { kind: 'fault', ruleId: rule.id }) };
  }

  /** A rule decides here (in memory, or uncounted); a shared ledger is told, so every replica shows its counts. */
  private considerHere(rule: FaultRule): boolean {
    const matched = rule.matched;
    const fires = rule.consider();
    if (this.shared && rule.matched > matched) this.shared.count(rule, 1, fires ? 1 : 0, 0);
    return fires;
  }

  // After the request rules: chaos draws, and the "after N items" rules get their watch.
  private chaosOrWatch(facts: RequestFacts, counting: FaultRule[] | undefined): FaultDecision {
    const deliveries = counting && facts.operation === 'subscribe' ? this.deliveryWatch(counting) : undefined;
    if (this.chaos?.matches(facts)) {
      const draw = this.chaos.draw();
      if (draw) {
        const why = `chaos seed ${this.chaos.seed}, draw ${draw.draw}: ${draw.kind}`;
        if (draw.effect) {
          this.logEffect(draw.effect, facts, { chaosSeed: this.chaos.seed, draw: draw.draw }, why);
          return { effect: effectOf(draw.effect, { kind: 'chaos' }), ...(deliveries && { deliveries }) };
        }
        return { pageChange: why, ...(deliveries && { deliveries }) };
      }
    }
    return deliveries ? { deliveries } : NO_DECISION;
  }

  /** A subscribe request started waiting: "while waiting" rules that match it watch it. */
  waitingStarted(entry: WaitingRequest): void {
    if (this.rules.waitingRules === 0) return;
    for (const rule of this.rules) {
      if (rule.phase === 'waiting' && rule.started && rule.matches(entry.facts)) this.watch(rule, entry);
    }
  }

  /** Back to no rules and no chaos: delayed requests are answered 503, every timer cancelled. */
  reset(): number {
    const n = this.rules.reset();
    this.chaos = undefined;
    this.delays.cancelAll();
    this.momentoLocal.clear();
    this.refresh();
    return n;
  }

  /** The rules and chaos as plain data, for a snapshot. */
  saved(): { faults: SavedFault[]; chaos: SavedChaos | undefined } {
    return { faults: this.rules.saved(), chaos: this.chaos?.save() };
  }

  /** Replaces every rule and chaos with restored ones (the clock is loaded first; rule-set.ts). */
  restore(rules: readonly FaultRule[], chaos: Chaos | undefined): void {
    this.reset();
    this.rules.restore(rules);
    this.chaos = chaos;
    this.refresh();
  }

  // A waiting request is answered with the fault once it has waited `waitedMs` of clock time.
  private watch(rule: FaultRule, entry: WaitingRequest): void {
    const fire = () => {
      if (!this.waiting.has(entry) || !this.rules.has(rule)) return;
      if (this.shared && rule.counted) {
        void this.firesOnLedger(this.shared, rule, () => this.waiting.has(entry)).then((fires) => fires && interrupt());
        return;
      }
      if (this.considerHere(rule)) interrupt();
    };
    const interrupt = () => {
      const effect = rule.effect();
      // A waiting request is answered now: a delay does not apply to it.
      if (!entry.interrupt(effectOf(withoutDelay(effect), { kind: 'fault', ruleId: rule.id }))) return;
      const why = `${rule.describe()}, after waiting ${this.clock.now() - entry.since} ms`;
      this.log.info(
        { fault: rule.id, ...requestFields(entry.facts), why },
        `fault: waiting ${describeRequest(entry.facts)} ${describeEffect(effect)} (${why})`,
      );
      this.rules.fired(rule);
    };
    const delay = entry.since + (rule.rule.waitedMs ?? 0) - this.clock.now();
    if (delay <= 0) return fire();
    const timer = this.rules.after(rule, delay, fire);
    entry.onEnd(() => this.rules.forget(rule, timer));
  }

  private logEffect(effect: FaultEffect, facts: RequestFacts, fields: Record<string, unknown>, why: string): void {
    this.log.info(
      { ...fields, ...requestFields(facts), why },
      `fault: ${describeRequest(facts)} ${describeEffect(effect)} (${why})`,
    );
  }

  // The "after N items" rules a subscribe counts towards (see deliveries.ts).
  private deliveryWatch(counting: FaultRule[]): DeliveryWatch {
    const rules = this.rules;
    return {
      get maxItems() {
        let max = Infinity;
        for (const rule of counting) if (rules.has(rule) && !rule.armed) max = Math.min(max, rule.deliveriesLeft);
        return max;
      },
      delivered: (items) => this.delivered(counting, items),
    };
  }

  // The answer is about to leave: a rule armed meanwhile by another subscriber's answer fires on
  // this one (it is past N too); else its items count towards each rule. Decided when called in
  // memory; on a shared ledger an armed rule waits for its answer.
  private async delivered(counting: FaultRule[], items: number): Promise<Effect | undefined> {
    const live = counting.filter((r) => this.rules.has(r));
    for (const rule of live) {
      if (!rule.armed) continue;
      if (this.shared) {
        if (await this.firesOnLedger(this.shared, rule)) return this.firedOnAnswer(rule);
        continue;
      }
      if (rule.consider()) return this.firedOnAnswer(rule);
    }
    return this.countDelivered(live, items);
  }

  private countDelivered(live: FaultRule[], items: number): undefined {
    for (const rule of live) {
      if (rule.armed) continue;
      rule.delivered += items;
      this.shared?.count(rule, 0, 0, items);
      if (rule.armed)
        this.log.info(
          { fault: rule.id, delivered: rule.delivered },
          `fault rule ${rule.id} armed: ${rule.delivered} item(s) delivered`,
        );
    }
    return undefined;
  }

  private firedOnAnswer(rule: FaultRule): Effect {
    const effect = rule.effect();
    const why = rule.describe();
    this.log.info({ why }, `fault: subscribe response ${describeEffect(effect)} (${why})`);
    this.rules.fired(rule);
    return effectOf(withoutDelay(effect), { kind: 'fault', ruleId: rule.id });
  }

  /** A rule's counts changed in the shared ledger (here or on another replica). */
  private counted(id: string, counts: RuleCounts): void {
    const rule = this.rules.find(id);
    if (!rule) return;
    rule.follow(counts);
    this.rules.fired(rule);
  }

  private refresh(): void {
    this.active = this.rules.size > 0 || this.chaos !== undefined;
  }
}
