import type { SavedClock } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import type { TokenWithdrawal, TokenWithdrawals } from '../control/token-withdrawals.js';
import { EmulatorError } from '../errors.js';
import { Chaos } from '../faults/chaos.js';
import { FaultRule } from '../faults/rule.js';
import type { LimitsProfile } from '../limits/account-limits.js';
import type { TopicContent } from '../topics/content.js';
import { snapshotChecks, type SnapshotTarget } from './checks.js';
import type { Snapshot, SnapshotControl, SnapshotItem, SnapshotLoaded, SnapshotTopicReset } from './document.js';
import { itemFromSnapshot } from './items.js';

// Loading a snapshot: decide everything first (the checks, each fault rule built), so that a
// bad snapshot changes nothing; then apply, which cannot fail. Its schema was checked once, by
// whichever way it came (the route, api.ts, the state file). On a shared store the replica that
// loads it passes its control part on (controls.ts), and every other replica applies that part
// through the same steps (applyControlRestore).

const WHY = 'snapshot loaded';

/** The control plane's part of a restore, decided (each fault rule built). */
export interface ControlPlan {
  faults: FaultRule[];
  chaos: Chaos | undefined;
  limits: LimitsProfile;
  clock: SavedClock;
  tokenWithdrawals: TokenWithdrawal[];
}

interface RestorePlan extends ControlPlan {
  topics: TopicContent[];
  items: SnapshotItem[];
  lastPage: number;
  topicResets: SnapshotTopicReset[];
}

function invalid(problem: string): EmulatorError {
  return new EmulatorError('invalid_body', `The request body is invalid: ${problem}.`);
}

/** The snapshot's consistency checked, as what to apply; throws 400 invalid_body naming the first problem. */
export function planRestore(snapshot: Snapshot, target: SnapshotTarget): RestorePlan {
  for (const check of snapshotChecks) {
    const problem = check(snapshot, target);
    if (problem) throw invalid(problem);
  }
  const { topics, lastPage, topicResets, items = [] } = snapshot;
  return { ...planControl(snapshot), topics, lastPage, topicResets, items };
}

/** The control part of a snapshot as what to apply: every fault rule built (a bad one throws 400 invalid_body). */
export function planControl(control: SnapshotControl): ControlPlan {
  const faults = control.faults.map((fault, i) => {
    try {
      return FaultRule.restore({
        ...fault,
        delivered: fault.delivered ?? 0,
        createdAtMs: Date.parse(fault.createdAt),
        ...(fault.endsAt !== undefined ? { endsAtMs: Date.parse(fault.endsAt) } : {}),
      });
    } catch (error) {
      throw invalid(`body.faults.${i}.rule: ${(error as Error).message}`);
    }
  });
  const { chaos, limits, clock, tokenWithdrawals } = control;
  return { faults, chaos: chaos ? Chaos.restore(chaos) : undefined, limits, clock, tokenWithdrawals };
}

/**
 * Replaces the emulator's state with the plan's. Like a reset, schedules are cancelled and every
 * waiting subscriber is answered with empty items first; then the clock, so that every time
 * after it is read on the loaded clock.
 */
export function applyRestore(
  context: EmulatorContext,
  withdrawals: TokenWithdrawals,
  plan: RestorePlan,
): SnapshotLoaded {
  const { store, clock, faults, pageChanges, log, settings } = context;
  pageChanges.reset();
  clearControl(context, withdrawals);
  const answeredSubscribers = context.waiting.answerAll().length;
  store.restore(plan.topics, plan.lastPage);
  loadControl(context, withdrawals, plan, true);
  const now = clock.now();
  // Each item's TTL runs again from the loaded clock's reading.
  context.items.replace(
    plan.items.map((item) => ({
      cache: item.cache,
      key: Buffer.from(item.key, 'base64'),
      item: itemFromSnapshot(item, now),
    })),
  );
  for (const { cache, topic, afterSequenceNumber, at } of plan.topicResets) {
    if (afterSequenceNumber !== undefined) pageChanges.afterSequenceNumber(cache, topic, afterSequenceNumber, WHY);
    else if (Date.parse(at!) > now) pageChanges.afterTime(cache, topic, Date.parse(at!) - now, WHY);
    else pageChanges.changeNow(cache, topic, `${WHY}: scheduled at ${at}`);
  }
  const loaded: SnapshotLoaded = {
    topics: plan.topics.length,
    items: plan.items.length,
    messages: plan.topics.reduce((sum, t) => sum + Math.min(t.messages.length, settings.retention), 0),
    faults: faults.list().length,
    tokenWithdrawals: withdrawals.saved().length,
    answeredSubscribers,
    clock: clock.state(),
  };
  log.info(
    { ...loaded, clock: loaded.clock.now },
    `snapshot loaded: ${loaded.topics} topic(s), ${loaded.messages} message(s), ${loaded.faults} fault rule(s); ${answeredSubscribers} waiting subscriber(s) answered`,
  );
  return loaded;
}

/**
 * Another replica on the shared store loaded a snapshot: the same control state here (its topics
 * come through the store, which answers this replica's waiting subscribers; its scheduled page
 * changes stay on that replica, whose page changes every replica sees). Its schedules here are
 * cancelled, as by a reset; the shared limit counts were reset there.
 */
export function applyControlRestore(context: EmulatorContext, withdrawals: TokenWithdrawals, plan: ControlPlan): void {
  context.pageChanges.reset();
  clearControl(context, withdrawals);
  loadControl(context, withdrawals, plan, false);
  context.log.info(`snapshot loaded on another replica: ${context.faults.list().length} fault rule(s)`);
}

/**
 * The shared store's control log was compacted past what this replica applied (it started
 * later, or was cut off for many changes): the control state the log led to replaces its own,
 * as a snapshot's control part does (requests a rule was delaying are answered 503). Unlike a
 * snapshot, nothing was reset: its scheduled page changes stay.
 */
export function applyControlBase(context: EmulatorContext, withdrawals: TokenWithdrawals, plan: ControlPlan): void {
  clearControl(context, withdrawals);
  loadControl(context, withdrawals, plan, false);
  context.log.info(`control state loaded from the shared store: ${context.faults.list().length} fault rule(s)`);
}

// Rules, chaos, withdrawals and the authenticator's verdicts forgotten (delayed requests answered 503).
function clearControl({ faults, auth }: EmulatorContext, withdrawals: TokenWithdrawals): void {
  faults.reset();
  withdrawals.reset();
  auth.reset();
}

// The clock first, so that every time after it is read on the loaded clock. `sharedCounts`: the
// shared store's limit counts are reset too (by the replica that loads, not by each that follows).
function loadControl(
  { clock, limits, faults }: EmulatorContext,
  withdrawals: TokenWithdrawals,
  plan: ControlPlan,
  sharedCounts: boolean,
): void {
  clock.restore(plan.clock);
  limits.reset(plan.limits, sharedCounts);
  faults.restore(plan.faults, plan.chaos);
  withdrawals.restore(plan.tokenWithdrawals, WHY);
}
