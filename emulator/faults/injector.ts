import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock, ClockTimer } from '../clock.js';
import { EmulatorError } from '../errors.js';
import { sendError } from '../error-handler.js';
import { Chaos, type ChaosInput, type ChaosView, type SavedChaos } from './chaos.js';
import { Delays } from './delay.js';
import { countItems, keepItems } from './deliveries.js';
import { describeEffect, describeRequest, dropConnection, faultError, requestFields } from './effects.js';
import type { PageChanges } from './page-changes.js';
import {
  FaultRule,
  type FaultEffect,
  type FaultRuleInput,
  type FaultView,
  type RequestFacts,
  type SavedFault,
} from './rule.js';
import type { WaitingRequest, WaitingRequests } from './waiting-requests.js';

// The fault rules and chaos, applied to service requests at three points: before the handler
// (request rules, chaos), while a subscribe waits ("while waiting" rules) and as a subscribe
// response leaves ("after N items" rules). The request path reads `active` and
// `watchesDeliveries` first: with no rule and no chaos, nothing else here runs.

export class FaultInjector {
  /** Any rule or chaos: the request path checks this before anything else. */
  active = false;
  /** Any "after N items" rule: subscribe responses are counted (and maybe cut). */
  watchesDeliveries = false;
  /** Faults injected since start, by rules and chaos (metrics); a reset does not zero it. */
  injected = 0;
  private readonly rules = new Map<string, FaultRule>();
  private readonly ruleTimers = new Map<string, Set<ClockTimer>>();
  private readonly deliveryRules = new WeakMap<FastifyRequest, FaultRule[]>();
  private readonly delays = new Delays();
  private chaos: Chaos | undefined;
  private waitingRules = 0;
  private nextId = 1;

  constructor(
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly waiting: WaitingRequests,
    private readonly pages: PageChanges,
  ) {}

  add(input: FaultRuleInput): FaultView {
    const rule = new FaultRule(`f${this.nextId}`, input, this.clock.now());
    this.nextId += 1;
    this.rules.set(rule.id, rule);
    this.refresh();
    if (rule.started) this.start(rule);
    else this.after(rule, input.startAfterMs!, () => this.start(rule));
    this.log.info({ fault: rule.id, rule: rule.rule }, `fault rule ${rule.id} added`);
    return rule.view();
  }

  get(id: string): FaultView {
    return this.require(id).view();
  }

  list(): FaultView[] {
    return [...this.rules.values()].map((r) => r.view());
  }

  remove(id: string, why = 'removed through the control plane'): FaultView {
    const rule = this.require(id);
    this.drop(rule, why);
    return rule.view();
  }

  clear(): number {
    const n = this.rules.size;
    for (const rule of [...this.rules.values()]) this.drop(rule, 'every rule removed');
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

  /** Before the handler: the first request rule that fires, else chaos, may answer, drop or delay. */
  async intercept(facts: RequestFacts, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    let counting: FaultRule[] | undefined;
    for (const rule of this.rules.values()) {
      if (rule.phase !== 'request' || !rule.matches(facts)) continue;
      if (rule.started && !rule.armed) {
        (counting ??= []).push(rule);
        continue;
      }
      if (!rule.consider()) continue;
      const inflicted = this.inflict(rule.effect(), facts, request, reply, { fault: rule.id }, rule.describe());
      this.fired(rule);
      return inflicted;
    }
    if (counting) this.deliveryRules.set(request, counting);
    if (this.chaos?.matches(facts)) {
      const draw = this.chaos.draw();
      if (!draw) return;
      this.injected += 1;
      const why = `chaos seed ${this.chaos.seed}, draw ${draw.draw}: ${draw.kind}`;
      if (draw.effect)
        return this.inflict(draw.effect, facts, request, reply, { chaosSeed: this.chaos.seed, draw: draw.draw }, why);
      this.pages.changeNow(facts.cache, facts.topic, why);
    }
  }

  /** As a subscribe response leaves: counts items for "after N items" rules and cuts the one that crosses N. */
  delivered(request: FastifyRequest, reply: FastifyReply, body: string): string {
    const rules = this.deliveryRules.get(request);
    if (!rules) return body;
    this.deliveryRules.delete(request);
    const live = rules.filter((r) => this.rules.has(r.id));
    // Armed meanwhile by another subscriber's response: this one is past N too.
    for (const rule of live) {
      if (!rule.armed || !rule.consider()) continue;
      const answer = this.inflictOnResponse(rule.effect(), request, reply, body, rule.describe());
      this.fired(rule);
      return answer;
    }
    const counting = live.filter((r) => !r.armed);
    if (counting.length === 0) return body;
    const items = countItems(body);
    const keep = Math.min(items, ...counting.map((r) => r.deliveriesLeft));
    for (const rule of counting) {
      rule.delivered += keep;
      if (rule.armed)
        this.log.info(
          { fault: rule.id, delivered: rule.delivered },
          `fault rule ${rule.id} armed: ${rule.delivered} item(s) delivered`,
        );
    }
    if (keep === items) return body;
    this.log.info(
      { fault: counting[0]!.id, items, kept: keep },
      `fault: subscribe response cut from ${items} to ${keep} item(s) (rule ${counting[0]!.id}: after ${counting[0]!.rule.afterItems} items)`,
    );
    return keepItems(body, keep);
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
    this.chaos = undefined;
    this.nextId = 1;
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
          this.drop(rule, `its duration of ${rule.rule.durationMs} ms ended`),
        );
    }
    this.chaos = chaos;
    this.refresh();
  }

  private start(rule: FaultRule): void {
    rule.started = true;
    if (rule.rule.durationMs !== undefined) {
      rule.endsAtMs = this.clock.now() + rule.rule.durationMs;
      this.after(rule, rule.rule.durationMs, () => this.drop(rule, `its duration of ${rule.rule.durationMs} ms ended`));
    }
    if (rule.phase === 'waiting') {
      for (const entry of this.waiting) if (rule.matches(entry.facts)) this.watch(rule, entry);
    }
  }

  // A waiting request is answered with the fault once it has waited `waitedMs` of clock time.
  private watch(rule: FaultRule, entry: WaitingRequest): void {
    const fire = () => {
      if (!this.waiting.has(entry) || !this.rules.has(rule.id) || !rule.consider()) return;
      if (!entry.request.abandonWait?.()) return;
      const why = `${rule.describe()}, after waiting ${this.clock.now() - entry.since} ms`;
      const effect = rule.effect();
      this.log.info(
        { fault: rule.id, ...requestFields(entry.facts), why },
        `fault: waiting ${describeRequest(entry.facts)} ${describeEffect(effect)} (${why})`,
      );
      if (effect.drop) dropConnection(entry.request, entry.reply);
      else void sendError(entry.reply, faultError(effect));
      this.fired(rule);
    };
    const delay = entry.since + (rule.rule.waitedMs ?? 0) - this.clock.now();
    if (delay <= 0) return fire();
    const timer = this.after(rule, delay, fire);
    entry.onEnd.push(() => this.forget(rule, timer));
  }

  private async inflict(
    effect: FaultEffect,
    facts: RequestFacts,
    request: FastifyRequest,
    reply: FastifyReply,
    fields: Record<string, unknown>,
    why: string,
  ): Promise<void> {
    this.log.info(
      { ...fields, ...requestFields(facts), why },
      `fault: ${describeRequest(facts)} ${describeEffect(effect)} (${why})`,
    );
    if (effect.delayMs) {
      const outcome = await this.delays.wait(effect.delayMs, reply.raw);
      if (outcome === 'client-gone') return dropConnection(request, reply);
      if (outcome === 'cancelled')
        throw new EmulatorError('service_unavailable', 'The emulator was reset while this request was delayed.');
    }
    if (effect.drop) return dropConnection(request, reply);
    if (effect.status) throw faultError(effect);
  }

  // In onSend the response is already under way: a status effect rewrites it, a drop ends it.
  private inflictOnResponse(
    effect: FaultEffect,
    request: FastifyRequest,
    reply: FastifyReply,
    body: string,
    why: string,
  ): string {
    this.log.info({ why }, `fault: subscribe response ${describeEffect(effect)} (${why})`);
    if (effect.drop) {
      request.raw.socket?.destroy();
      return body;
    }
    if (!effect.status) return body;
    const error = faultError(effect);
    reply.code(error.status).headers(error.headers);
    return JSON.stringify(error.toBody());
  }

  private fired(rule: FaultRule): void {
    this.injected += 1;
    if (rule.usedUp) this.drop(rule, `its count of ${rule.rule.count} is used up`);
  }

  private drop(rule: FaultRule, why: string): void {
    if (!this.rules.delete(rule.id)) return;
    for (const timer of this.ruleTimers.get(rule.id) ?? []) timer.cancel();
    this.ruleTimers.delete(rule.id);
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
        `No fault rule has the id '${id}' (rules whose count is used up are removed).`,
      );
    return rule;
  }

  private refresh(): void {
    let waiting = 0;
    let deliveries = false;
    for (const rule of this.rules.values()) {
      if (rule.phase === 'waiting') waiting += 1;
      if (rule.countsDeliveries) deliveries = true;
    }
    this.waitingRules = waiting;
    this.watchesDeliveries = deliveries;
    this.active = this.rules.size > 0 || this.chaos !== undefined;
  }
}
