import type { EmulatorContext } from '../context.js';
import { applyControlBase, applyControlRestore, planControl } from '../snapshot/restore.js';
import type { SharedChange } from './shared-changes.js';
import type { TokenWithdrawals } from './token-withdrawals.js';

// A control-plane change another replica made (and applied) there, applied here as the same
// operation. The caller (controls.ts) keeps it from being passed on again.

/** What applying a change needs besides the context: a reset's own steps, and the token withdrawals. */
export interface ReplicaTarget {
  context: EmulatorContext;
  withdrawals: TokenWithdrawals;
  /** Everything a reset puts back here (the topics were cleared by the store already). */
  resetControls: () => void;
}

export function applySharedChange({ context, withdrawals, resetControls }: ReplicaTarget, change: SharedChange): void {
  const { clock, faults, limits } = context;
  switch (change.op) {
    case 'reset':
      return resetControls();
    case 'clock':
      return clock.restore(change.clock);
    case 'setLimits':
      limits.set(change.change);
      return;
    case 'startChaos':
      faults.startChaos(change.input);
      return;
    case 'stopChaos':
      faults.stopChaos();
      return;
    case 'addFault':
      faults.add(change.rule, change.id, change.at);
      return;
    case 'removeFault':
      if (faults.list().some((f) => f.id === change.id)) faults.remove(change.id, 'removed on another replica');
      return;
    case 'clearFaults':
      faults.clear();
      return;
    case 'restoreControl':
      return applyControlRestore(context, withdrawals, planControl(change.control));
    case 'compacted':
      return applyControlBase(context, withdrawals, planControl(change.control));
    case 'withdraw':
      // Due when it was due there: a replica that applies it later waits only what is left.
      withdrawals.withdrawAt(change.tokenId, change.how, change.at + (change.afterMs ?? 0), 'another replica');
      return;
  }
}
