import type { SavedClock } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import type { TokenWithdrawal, TokenWithdrawals } from '../control/token-withdrawals.js';
import { EmulatorError } from '../errors.js';
import { Chaos } from '../faults/chaos.js';
import { FaultRule } from '../faults/rule.js';
import type { LimitsProfile } from '../limits/account-limits.js';
import type { TopicContent } from '../topics/content.js';
import { snapshotChecks } from './checks.js';
import type { Snapshot, SnapshotLoaded, SnapshotTopicReset } from './document.js';

// Loading a snapshot: decide everything first (the checks, each fault rule built), so that a
// bad snapshot changes nothing; then apply, which cannot fail. Its schema was checked once, by
// whichever way it came (the route, api.ts, the state file).

const WHY = 'snapshot loaded';

interface RestorePlan {
  topics: TopicContent[];
  lastPage: number;
  topicResets: SnapshotTopicReset[];
  faults: FaultRule[];
  chaos: Chaos | undefined;
  limits: LimitsProfile;
  clock: SavedClock;
  tokenWithdrawals: TokenWithdrawal[];
}

function invalid(problem: string): EmulatorError {
  return new EmulatorError('invalid_body', `The request body is invalid: ${problem}.`);
}

/** The snapshot's consistency checked, as what to apply; throws 400 invalid_body naming the first problem. */
export function planRestore(snapshot: Snapshot, caches: ReadonlySet<string>): RestorePlan {
  for (const check of snapshotChecks) {
    const problem = check(snapshot, caches);
    if (problem) throw invalid(problem);
  }
  const faults = snapshot.faults.map((fault, i) => {
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
  const { topics, lastPage, topicResets, chaos, limits, clock, tokenWithdrawals } = snapshot;
  return {
    topics,
    lastPage,
    topicResets,
    faults,
    chaos: chaos ? Chaos.restore(chaos) : undefined,
    limits,
    clock,
    tokenWithdrawals,
  };
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
  const { store, clock, faults, limits, pageChanges, auth, log, settings } = context;
  pageChanges.reset();
  faults.reset();
  withdrawals.reset();
  auth.reset();
  const answeredSubscribers = context.waiting.answerAll().length;
  store.restore(plan.topics, plan.lastPage);
  clock.restore(plan.clock);
  limits.reset(plan.limits);
  faults.restore(plan.faults, plan.chaos);
  const now = clock.now();
  for (const { cache, topic, afterSequenceNumber, at } of plan.topicResets) {
    if (afterSequenceNumber !== undefined) pageChanges.afterSequenceNumber(cache, topic, afterSequenceNumber, WHY);
    else if (Date.parse(at!) > now) pageChanges.afterTime(cache, topic, Date.parse(at!) - now, WHY);
    else pageChanges.changeNow(cache, topic, `${WHY}: scheduled at ${at}`);
  }
  withdrawals.restore(plan.tokenWithdrawals, WHY);
  const loaded: SnapshotLoaded = {
    topics: plan.topics.length,
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
