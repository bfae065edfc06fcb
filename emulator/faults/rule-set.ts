import type { Clock, ClockTimer } from '../clock.js';
import { EmulatorError } from '../errors.js';
import type { Log } from '../logging.js';
import { FaultRule, type FaultRuleInput, type FaultView, type SavedFault } from './rule.js';
import type { SharedFirings } from './shared-firings.js';

// The fault rules in force and their lifetimes: ids, when each starts and ends (clock time),
// the ones that ended by themselves (kept for the control plane until cleared). What a rule
// does to a request is the injector's (injector.ts); this is only which rules there are.

/** The largest rule number the document's FaultId pattern (`^f[1-9][0-9]{0,8}$`) takes. */
export const MAX_FAULT_NUMBER = 999_999_999;
/** The most ended rules kept for the control plane and the dashboard (the newest). */
const MAX_ENDED_RULES = 100;

export class FaultRules implements Iterable<FaultRule> {
  private readonly rules = new Map<string, FaultRule>();
  private readonly endedRules: FaultView[] = [];
  private readonly timers = new Map<string, Set<ClockTimer>>();
  private nextId = 1;
  /** How many "while waiting" rules there are (the waiting path skips them all at 0). */
  waitingRules = 0;
  /** Told when a rule starts (a "while waiting" rule then watches the requests already waiting). */
  onStart: (rule: FaultRule) => void = () => {};
  /** Told when rules are added or taken out. */
  onChange: () => void = () => {};

  constructor(
    private readonly clock: Clock,
    private readonly log: Log,
    private readonly shared: SharedFirings | undefined,
  ) {}

  get size(): number {
    return this.rules.size;
  }

  [Symbol.iterator](): MapIterator<FaultRule> {
    return this.rules.values();
  }

  has(rule: FaultRule): boolean {
    return this.rules.has(rule.id);
  }

  find(id: string): FaultRule | undefined {
    return this.rules.get(id);
  }

  /**
   * Adds a rule; `id` and `createdAtMs` are given when another replica added it (the next ids
   * here follow it; it starts and ends at the same clock times there and here).
   */
  add(input: FaultRuleInput, id = this.newId(), createdAtMs = this.clock.now()): FaultRule {
    const rule = new FaultRule(id, input, createdAtMs);
    this.nextId = Math.max(this.nextId, Number(id.slice(1)) + 1);
    this.rules.set(rule.id, rule);
    this.changed();
    const startsInMs = createdAtMs + (input.startAfterMs ?? 0) - this.clock.now();
    if (startsInMs <= 0) this.start(rule, createdAtMs + (input.startAfterMs ?? 0));
    else this.after(rule, startsInMs, () => this.start(rule));
    this.log.info({ fault: rule.id, rule: rule.rule }, `fault rule ${rule.id} added`);
    return rule;
  }

  /** The rule with this id; 404 fault_not_found when there is none. */
  require(id: string): FaultRule {
    const rule = this.rules.get(id);
    if (!rule)
      throw new EmulatorError(
        'fault_not_found',
        `No fault rule has the id '${id}' (one that ended is listed under 'ended' in GET /_emulator/faults).`,
      );
    return rule;
  }

  list(): FaultView[] {
    return [...this.rules.values()].map((r) => r.view());
  }

  /** Rules that ended by themselves (count used up, duration over), newest first, until cleared. */
  ended(): FaultView[] {
    return [...this.endedRules];
  }

  /** Takes every rule out, and forgets the ended ones; returns how many were in force. */
  clear(): number {
    const n = this.rules.size;
    for (const rule of [...this.rules.values()]) this.drop(rule, 'every rule removed');
    this.endedRules.length = 0;
    return n;
  }

  /** A rule that fired: taken out once its count is used up. */
  fired(rule: FaultRule): void {
    if (rule.usedUp) this.drop(rule, `its count of ${rule.rule.count} is used up`, true);
  }

  /** Takes a rule out; one that ended by itself stays listed among the ended ones, until cleared. */
  drop(rule: FaultRule, why: string, endedByItself = false): void {
    if (!this.rules.delete(rule.id)) return;
    for (const timer of this.timers.get(rule.id) ?? []) timer.cancel();
    this.timers.delete(rule.id);
    if (endedByItself) {
      this.endedRules.unshift({ ...rule.view(), endedAt: new Date(this.clock.now()).toISOString(), endedBecause: why });
      if (this.endedRules.length > MAX_ENDED_RULES) this.endedRules.length = MAX_ENDED_RULES;
    }
    this.changed();
    this.log.info({ fault: rule.id, fired: rule.fired }, `fault rule ${rule.id} removed: ${why}`);
  }

  /** Runs `fn` after `ms` of clock time, unless the rule is taken out first. */
  after(rule: FaultRule, ms: number, fn: () => void): ClockTimer {
    let timers = this.timers.get(rule.id);
    if (!timers) this.timers.set(rule.id, (timers = new Set()));
    const timer = this.clock.schedule(ms, () => {
      timers.delete(timer);
      fn();
    });
    timers.add(timer);
    return timer;
  }

  forget(rule: FaultRule, timer: ClockTimer): void {
    timer.cancel();
    this.timers.get(rule.id)?.delete(timer);
  }

  /** No rules, ended or in force, every timer cancelled; returns how many were in force. */
  reset(): number {
    const n = this.rules.size;
    for (const timers of this.timers.values()) for (const timer of timers) timer.cancel();
    this.timers.clear();
    this.rules.clear();
    this.endedRules.length = 0;
    if (!this.shared) this.nextId = 1;
    this.changed();
    return n;
  }

  saved(): SavedFault[] {
    return [...this.rules.values()].map((rule) => rule.save());
  }

  /**
   * Replaces every rule with restored ones (the clock is loaded first): a rule starts and ends at
   * the same clock times as before, at once when that time has passed.
   */
  restore(rules: readonly FaultRule[]): void {
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
    this.changed();
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
    this.onStart(rule);
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

  private changed(): void {
    let waiting = 0;
    for (const rule of this.rules.values()) if (rule.phase === 'waiting') waiting += 1;
    this.waitingRules = waiting;
    this.onChange();
  }
}
