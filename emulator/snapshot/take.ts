import type { EmulatorContext } from '../context.js';
import type { TokenWithdrawals } from '../control/token-withdrawals.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type Snapshot, type SnapshotControl } from './document.js';
import { itemToSnapshot } from './items.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** The emulator's whole state now, as a snapshot document. */
export function takeSnapshot(context: EmulatorContext, withdrawals: TokenWithdrawals): Snapshot {
  const { store, clock, pageChanges, items } = context;
  const now = clock.now();
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    takenAt: iso(clock.now()),
    lastPage: store.lastPage(),
    topics: store.contents(),
    topicResets: pageChanges
      .scheduled()
      .map(({ cache, topic, afterSequenceNumber, at }) =>
        afterSequenceNumber !== undefined ? { cache, topic, afterSequenceNumber } : { cache, topic, at: at! },
      ),
    items: items.items(now).map((item) => itemToSnapshot(item, now)),
    ...takeControl(context, withdrawals),
  };
}

/** The control plane's state now (rules, chaos, limits, clock, token withdrawals): a snapshot's control part. */
export function takeControl(context: EmulatorContext, withdrawals: TokenWithdrawals): SnapshotControl {
  const { clock, faults, limits } = context;
  const saved = faults.saved();
  const { enabled, operationsPerSecond, concurrentSubscriptions } = limits.view();
  return {
    faults: saved.faults.map(({ createdAtMs, endsAtMs, delivered, ...fault }) => ({
      ...fault,
      ...(fault.rule.afterItems !== undefined ? { delivered } : {}),
      createdAt: iso(createdAtMs),
      ...(endsAtMs !== undefined ? { endsAt: iso(endsAtMs) } : {}),
    })),
    chaos: saved.chaos ?? null,
    limits: { enabled, operationsPerSecond, concurrentSubscriptions },
    clock: clock.save(),
    tokenWithdrawals: withdrawals.saved(),
  };
}
