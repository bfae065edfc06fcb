import type { Consideration, FaultRule, RuleCounts } from './rule.js';

// The fault rules' counters when several replicas serve one emulator (a shared store): one
// ledger, so a `count: 1` rule fires exactly once across all of them, skips and "after N items"
// count every replica's requests, and every replica shows the same counts. In memory there is
// no ledger: a rule counts in its own fields, synchronously, as it always has.

export type { Consideration, RuleCounts };

export interface SharedFirings {
  /** A new rule's id: `f` and a number no other replica hands out. */
  nextId(): string;
  /**
   * One more matching request of a counted rule (a count, skips or "after N items"): checked and
   * counted atomically in the ledger. `draw`: whether this replica's draw would let it fire (true
   * without a probability). Never rejects: a ledger out of reach refuses.
   */
  consider(rule: FaultRule, draw: boolean): Promise<Consideration>;
  /** Adds to a rule's counts without deciding anything (an uncounted rule, items delivered): nothing waits. */
  count(rule: FaultRule, matched: number, fired: number, delivered: number): void;
  /** Told of a rule's counts whenever the ledger changes them, on any replica. */
  onCounts: ((id: string, counts: RuleCounts) => void) | undefined;
}
