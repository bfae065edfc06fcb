import type {
  ChaosInput,
  FaultRuleInput,
  LimitsInput,
  TokenWithdrawal,
} from '../../openapi/generated/control-types.js';
import type { SavedClock } from '../clock.js';
import type { SharedFirings } from '../faults/shared-firings.js';
import type { SnapshotControl } from '../snapshot/document.js';

// The control plane's changes that replicas on one shared store (Redis) pass to each other, so
// each applies the same one: plain data, logged in the store since the last reset (a replica
// started later applies the log before it serves) and sent on the store's channel. The fault
// rules' counters are one ledger in the store and the limits count in the store (limitCounts);
// chaos's draws and a replica's own requests stay its own.

/** The control plane's part of a shared store. */
export interface SharedControl {
  /** Logs a change (this replica has applied it already) and passes it to every other replica. */
  share(change: SharedChange): void;
  /**
   * Applies, in order, the changes logged since the last reset that this replica has not
   * applied (a late joiner catches up), then each change as it comes, once; resolves once
   * caught up.
   */
  follow(follower: ControlFollower): Promise<void>;
  /** The fault rules' counters and ids, one ledger for every replica. */
  readonly firings: SharedFirings;
}

/** A replica as its shared store sees it: it applies the others' changes, and shows its own control state. */
export interface ControlFollower {
  /** Applies a change another replica made (and applied) there, or the state a compacted log starts from. */
  apply(change: SharedChange): void;
  /** The control state here now: what the store compacts the log into (shared-control.ts). */
  current(): SnapshotControl;
}

export type SharedChange =
  /** Everything a reset puts back but the topics (the store clears those for every replica). */
  | { op: 'reset' }
  /** The clock as it is after a setClock: every replica loads the same reading and mode. */
  | { op: 'clock'; clock: SavedClock }
  | { op: 'setLimits'; change: LimitsInput }
  | { op: 'startChaos'; input: ChaosInput }
  | { op: 'stopChaos' }
  /** A fault rule, with the id the replica that added it gave it and the clock reading then. */
  | { op: 'addFault'; id: string; rule: FaultRuleInput; at: number }
  | { op: 'removeFault'; id: string }
  | { op: 'clearFaults' }
  /** `at`: the clock reading when it was asked for, so a scheduled one is due at the same time everywhere. */
  | { op: 'withdraw'; tokenId: string; how: TokenWithdrawal['how']; afterMs?: number; at: number }
  /**
   * A snapshot's control part, loaded on one replica (the store replaced the topics): the store
   * seeds the rules' counters with the saved ones and hands out later rule ids past the restored ones.
   */
  | { op: 'restoreControl'; control: SnapshotControl }
  /**
   * The control state the logged changes up to some number led to (the store compacts its log
   * into it): what a replica that has not applied them all loads instead, like a snapshot's
   * control part, keeping its own scheduled page changes.
   */
  | { op: 'compacted'; control: SnapshotControl };

const OPS = new Set([
  'reset',
  'clock',
  'setLimits',
  'startChaos',
  'stopChaos',
  'addFault',
  'removeFault',
  'clearFaults',
  'withdraw',
  'restoreControl',
  'compacted',
]);

/** Whether a message from the channel is a change this version knows (a newer replica's is ignored). */
export function isSharedChange(value: unknown): value is SharedChange {
  return typeof value === 'object' && value !== null && OPS.has((value as { op?: unknown }).op as string);
}

/** The control operation a change is, as the event stream names it. */
export function sharedOperationId(change: SharedChange): string {
  if (change.op === 'clock') return 'setClock';
  // A compacted log replaces the control state as a loaded snapshot does.
  if (change.op === 'restoreControl' || change.op === 'compacted') return 'loadSnapshot';
  if (change.op === 'withdraw') return change.how === 'expired' ? 'expireToken' : 'revokeToken';
  return change.op;
}
