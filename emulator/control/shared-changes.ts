import type {
  ChaosInput,
  FaultRuleInput,
  LimitsInput,
  TokenWithdrawal,
} from '../../openapi/generated/control-types.js';
import type { SavedClock } from '../clock.js';

// The control plane's changes that replicas on one shared store (Redis) pass to each other, so
// each applies the same one: plain data, sent on the store's channel. What each replica counts
// (a rule's matches, chaos's draws) stays its own; the limits count in the store (limitCounts).

export type SharedChange =
  /** Everything a reset puts back but the topics (the store clears those for every replica). */
  | { op: 'reset' }
  /** The clock as it is after a setClock: every replica loads the same reading and mode. */
  | { op: 'clock'; clock: SavedClock }
  | { op: 'setLimits'; change: LimitsInput }
  | { op: 'startChaos'; input: ChaosInput }
  | { op: 'stopChaos' }
  /** A fault rule, with the id the replica that added it gave it. */
  | { op: 'addFault'; id: string; rule: FaultRuleInput }
  | { op: 'removeFault'; id: string }
  | { op: 'clearFaults' }
  | { op: 'withdraw'; tokenId: string; how: TokenWithdrawal['how']; afterMs?: number };

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
]);

/** Whether a message from the channel is a change this version knows (a newer replica's is ignored). */
export function isSharedChange(value: unknown): value is SharedChange {
  return typeof value === 'object' && value !== null && OPS.has((value as { op?: unknown }).op as string);
}

/** The control operation a change is, as the event stream names it. */
export function sharedOperationId(change: SharedChange): string {
  if (change.op === 'clock') return 'setClock';
  if (change.op === 'withdraw') return change.how === 'expired' ? 'expireToken' : 'revokeToken';
  return change.op;
}
