import type { Clock, ClockTimer } from '../clock.js';
import { EmulatorError } from '../errors.js';
import {
  describeRequest,
  requestFields,
  type Effect,
  type RequestFacts,
  type WaitingRequest,
  type WaitingRequests,
} from '../requests.js';
import type { PageChanges } from '../topics/page-changes.js';
import { Chaos, type ChaosInput, type ChaosView, type SavedChaos } from './chaos.js';
import { Delays } from './delay.js';
import type { DeliveryWatch } from './deliveries.js';
import { describeEffect, effectOf, withoutDelay } from './effects.js';
import { FaultRule, type FaultEffect, type FaultRuleInput, type FaultView, type SavedFault } from './rule.js';
import type { RuleCounts, SharedFirings } from './shared-firings.js';
import type { Log } from '../logging.js';

// The fault rules and chaos decide what happens to a service request at three points: before
// the handler (request rules, chaos), while a subscribe waits ("while waiting" rules) and as a
// subscribe answer leaves ("after N items" rules). They decide plain effects; the HTTP layer
// applies them (http/answers.ts). The request path reads `active` first: with no rule and
// no chaos, nothing else here runs. On a shared store a counted rule (count, skips, "after N
// items") asks the replicas' one ledger (shared-firings.ts) whether it fires: only requests it
// matches wait for that answer, so only they get a promise.

/** What the faults decided for one request before its handler. */
export interface FaultDecision {
  readonly effect?: Effect;
  /** The "after N items" rules this subscribe counts towards. */
  readonly deliveries?: DeliveryWatch;
}

const NO_DECISION: FaultDecision = {};

/** The largest rule number the document's FaultId pattern (`^f[1-9][0-9]{0,8}$`) takes. */
export const MAX_FAULT_NUMBER = 999_999_999;
/** The most ended rules kept for the control plane and the dashboard (the newest). */
const MAX_ENDED_RULES = 100;

export class FaultInjector {
  /** Any rule or chaos: the request path checks this before anything else. */
  active = false;
  private readonly rules = new Map<string, FaultRule>();
  private readonly endedRules: FaultView[] = [];
  private readonly ruleTimers = new Map<string, Set<ClockTimer>>();
  /** Requests a fault holds for real time: a reset or a stop answers them. */
  readonly delays = new Delays();
  private chaos: Chaos | undefined;
  private waitingRules = 0;
  private nextId = 1;

  constructor(
    private readonly clock: Clock,
    private readonly log: Log,
    private readonly waiting: WaitingRequests,
    private readonly pages: PageChanges,
    private readonly shared?: SharedFirings,
  ) {
    if (shared) shared.onCounts = (id, counts) => this.counted(id, counts);
  }

  /**
   * Adds a rule; `id` and `createdAtMs` are given when another replica added it (the next ids
   * here follow it; it starts and ends at the same clock times there and here).
   */
  add(input: FaultRuleInput, id = this.newId(), createdAtMs = this.clock.now()): FaultView {
    const rule = new FaultRule(id, input, createdAtMs);
    this.nextId = Math.max(this.nextId, Number(id.slice(1)) + 1);
    this.rules.set(rule.id, rule);
    this.refresh();
    const startsInMs = createdAtMs + (input.startAfterMs ?? 0) - this.clock.now();
    if (startsInMs <= 0) this.start(rule, createdAtMs + (input.startAfterMs ?? 0));
    else this.after(rule, startsInMs, () => this.start(rule));
    this.log.info({ fault: rule.id, rule: rule.rule }, `fault rule ${rule.id} added`);
    return rule.view();
  }

  get(id: string): FaultView {
    return this.require(id).view();
  }

  list(): FaultView[] {
    return [...this.rules.values()].map((r) => r.view());
  }

  /** Rules that ended by themselves (count used up, duration over), newest first, until cleared. */
  ended(): FaultView[] {
    return [...this.endedRules];
  }

  remove(id: string, why = 'removed through the control plane'): FaultView {
    const rule = this.require(id);
    this.drop(rule, why);
    return rule.view();
  }

  clear(): number {
    const n = this.rules.size;
    for (const rule of [...this.rules.values()]) this.drop(rule, 'every rule removed');
    this.endedRules.length = 0;
    return n;
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
   */
  decide(facts: RequestFacts): FaultDecision | Promise<FaultDecision> {
    return this.decideFrom(this.rules.values(), facts, undefined);
  }

  // The rules from where `rules` stands: a counted rule on a shared ledger waits for its answer,
  // then the same iterator goes on (a Map's iterator survives leaving a for...of early).
  private decideFrom(
    rules: MapIterator<FaultRule>,
    facts: RequestFacts,
    counting: FaultRule[] | undefined,
  ): FaultDecision | Promise<FaultDecision> {
    for (const rule of rules) {
      if (rule.phase !== 'request' || !rule.matches(facts)) continue;
      if (rule.started && !rule.armed) {
        (counting ??= []).push(rule);
        continue;
      }
      if (this.shared && rule.counted)
        return this.shared
          .consider(rule, rule.draws())
          .then((c) =>
            rule.considered(c) && this.stillFires(rule)
              ? this.hit(rule, facts)
              : this.afterConsidering(rule, () => this.decideFrom(rules, facts, counting)),
          );
      if (this.considerHere(rule)) return this.hit(rule, facts);
    }
    return this.chaosOrWatch(facts, counting);
  }

  // The ledger said this request fires. The rule may have been dropped here meanwhile: by hand or
  // by a reset (it no longer fires), or because the ledger's counts, which come over pub/sub and
  // may overtake the verdict on the command connection, used it up, counting this very firing
  // (the firing stands: dropping it would leave a `count: 3` rule answering 3 counted, 2 fired).
  private stillFires(rule: FaultRule): boolean {
    return this.rules.has(rule.id) || rule.usedUp;
  }

  private hit(rule: FaultRule, facts: RequestFacts): FaultDecision {
    const effect = rule.effect();
    this.logEffect(effect, facts, { fault: rule.id }, rule.describe());
    this.fired(rule);
    return { effect: effectOf(effect, { kind: 'fault', ruleId: rule.id }) };
  }

  /** A rule decides here (in memory, or uncounted); a shared ledger is told, so every replica shows its counts. */
  private considerHere(rule: FaultRule): boolean {
    const matched = rule.matched;
    const fires = rule.consider();
    if (this.shared && rule.matched > matched) this.shared.count(rule, 1, fires ? 1 : 0, 0);
    return fires;
  }

  /** A counted rule did not fire: it may be used up now (on another replica); then `next`. */
  private afterConsidering<T>(rule: FaultRule, next: () => T): T {
    this.fired(rule);
    return next();
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
        this.pages.changeNow(facts.cache, facts.topic, why);
      }
    }
    return deliveries ? { deliveries } : NO_DECISION;
  }

  /** A subscribe request started waiting: "while waiting" rules that match it watch it. */
  waitingStarted(entry: WaitingRequest): void {
    if (this.waitingRules === 0) return;
    for (const rule of this.rules.values()) {
      if (rule.phase === 'waiting' && rule.started && rule.matches(entry.facts)) this.watch(rule, entry);
    }
  }

  /** Back to no rules and no chaos: delayed requests are answered 503, every timer cancelled. */
  reset(): number {
    const n = this.rules.size;
    for (const timers of this.ruleTimers.values()) for (const timer of timers) timer.cancel();
    this.ruleTimers.clear();
    this.rules.clear();
    this.endedRules.length = 0;
    this.chaos = undefined;
    if (!this.shared) this.nextId = 1;
    this.delays.cancelAll();
    this.refresh();
    return n;
  }

  /** The rules and chaos as plain data, for a snapshot. */
  saved(): { faults: SavedFault[]; chaos: SavedChaos | undefined } {
    return { faults: [...this.rules.values()].map((rule) => rule.save()), chaos: this.chaos?.save() };
  }

  /**
   * Replaces every rule and chaos with restored ones (the clock is loaded first): a rule starts
   * and ends at the same clock times as before, at once when that time has passed.
   */
  restore(rules: readonly FaultRule[], chaos: Chaos | undefined): void {
    this.reset();
    const now = this.clock.now();
    for (const rule of rules) {
      if (rule.usedUp || (rule.endsAtMs !== undefined && rule.endsAtMs <= now)) continue;
      this.rules.set(rule.id, rule);
      this.nextId = Math.max(this.nextId, Number(rule.id.slice(1)) + 1);
      const startsAtMs = rule.createdAtMs + (rule.rule.startAfterMs ?? 0);
      if (!rule.started && startsAtMs > now) this.after(rule, startsAtMs - now, () => this.start(rule));
      else if (!rule.started) this.start(rule);
      else if (rule.endsAtMs !== undefined)
        this.after(rule, rule.endsAtMs - now, () =>
          this.drop(rule, `its duration of ${rule.rule.durationMs} ms ended`, true),
        );
    }
    this.chaos = chaos;
    this.refresh();
  }

  /** The rule starts (at `atMs` of clock time, now unless it started earlier on another replica). */
  private start(rule: FaultRule, atMs = this.clock.now()): void {
    rule.started = true;
    if (rule.rule.durationMs !== undefined) {
      rule.endsAtMs = atMs + rule.rule.durationMs;
      const why = `its duration of ${rule.rule.durationMs} ms ended`;
      if (rule.endsAtMs <= this.clock.now()) return this.drop(rule, why, true);
      this.after(rule, rule.endsAtMs - this.clock.now(), () => this.drop(rule, why, true));
    }
    if (rule.phase === 'waiting') {
      for (const entry of this.waiting) if (rule.matches(entry.facts)) this.watch(rule, entry);
    }
  }

  // A waiting request is answered with the fault once it has waited `waitedMs` of clock time.
  private watch(rule: FaultRule, entry: WaitingRequest): void {
    const fire = () => {
      if (!this.waiting.has(entry) || !this.rules.has(rule.id)) return;
      if (this.shared && rule.counted) {
        void this.shared.consider(rule, rule.draws()).then((c) => {
          if (rule.considered(c) && this.waiting.has(entry) && this.stillFires(rule)) interrupt();
          else this.fired(rule);
        });
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
      this.fired(rule);
    };
    const delay = entry.since + (rule.rule.waitedMs ?? 0) - this.clock.now();
    if (delay <= 0) return fire();
    const timer = this.after(rule, delay, fire);
    entry.onEnd(() => this.forget(rule, timer));
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
        for (const rule of counting) if (rules.has(rule.id) && !rule.armed) max = Math.min(max, rule.deliveriesLeft);
        return max;
      },
      delivered: (items) => this.delivered(counting, items),
    };
  }

  private delivered(counting: FaultRule[], items: number): Effect | undefined | Promise<Effect | undefined> {
    const live = counting.filter((r) => this.rules.has(r.id));
    const effect = this.armedMeanwhile(live, 0);
    if (effect instanceof Promise) return effect.then((decided) => decided ?? this.countDelivered(live, items));
    return effect ?? this.countDelivered(live, items);
  }

  // Armed meanwhile by another subscriber's answer: this one is past N too.
  private armedMeanwhile(live: FaultRule[], from: number): Effect | undefined | Promise<Effect | undefined> {
    for (let i = from; i < live.length; i += 1) {
      const rule = live[i]!;
      if (!rule.armed) continue;
      if (this.shared)
        return this.shared
          .consider(rule, rule.draws())
          .then((c) =>
            rule.considered(c) && this.stillFires(rule)
              ? this.firedOnAnswer(rule)
              : this.afterConsidering(rule, () => this.armedMeanwhile(live, i + 1)),
          );
      if (rule.consider()) return this.firedOnAnswer(rule);
    }
    return undefined;
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
    this.fired(rule);
    return effectOf(withoutDelay(effect), { kind: 'fault', ruleId: rule.id });
  }

  /** A rule's counts changed in the shared ledger (here or on another replica). */
  private counted(id: string, counts: RuleCounts): void {
    const rule = this.rules.get(id);
    if (!rule) return;
    rule.follow(counts);
    this.fired(rule);
  }

  private newId(): string {
    if (this.shared) return this.shared.nextId();
    // The document's rule ids have at most nine digits (a snapshot with a longer one is refused):
    // past them no rule is added, rather than one written into a state that cannot load back.
    if (this.nextId > MAX_FAULT_NUMBER)
      throw new EmulatorError(
        'invalid_request',
        `Fault rule ids are used up (f${MAX_FAULT_NUMBER} was the last): reset the emulator to number them from f1 again.`,
      );
    return `f${this.nextId}`;
  }

  private fired(rule: FaultRule): void {
    if (rule.usedUp) this.drop(rule, `its count of ${rule.rule.count} is used up`, true);
  }

  /** Takes a rule out; one that ended by itself stays listed among the ended ones, until cleared. */
  private drop(rule: FaultRule, why: string, endedByItself = false): void {
    if (!this.rules.delete(rule.id)) return;
    for (const timer of this.ruleTimers.get(rule.id) ?? []) timer.cancel();
    this.ruleTimers.delete(rule.id);
    if (endedByItself) {
      this.endedRules.unshift({ ...rule.view(), endedAt: new Date(this.clock.now()).toISOString(), endedBecause: why });
      if (this.endedRules.length > MAX_ENDED_RULES) this.endedRules.length = MAX_ENDED_RULES;
    }
    this.refresh();
    this.log.info({ fault: rule.id, fired: rule.fired }, `fault rule ${rule.id} removed: ${why}`);
  }

  private after(rule: FaultRule, ms: number, fn: () => void): ClockTimer {
    let timers = this.ruleTimers.get(rule.id);
    if (!timers) this.ruleTimers.set(rule.id, (timers = new Set()));
    const timer = this.clock.schedule(ms, () => {
      timers.delete(timer);
      fn();
    });
    timers.add(timer);
    return timer;
  }

  private forget(rule: FaultRule, timer: ClockTimer): void {
    timer.cancel();
    this.ruleTimers.get(rule.id)?.delete(timer);
  }

  private require(id: string): FaultRule {
    const rule = this.rules.get(id);
    if (!rule)
      throw new EmulatorError(
        'fault_not_found',
        `No fault rule has the id '${id}' (one that ended is listed under 'ended' in GET /_emulator/faults).`,
      );
    return rule;
  }

  private refresh(): void {
    let waiting = 0;
    for (const rule of this.rules.values()) if (rule.phase === 'waiting') waiting += 1;
    this.waitingRules = waiting;
    this.active = this.rules.size > 0 || this.chaos !== undefined;
  }
}
