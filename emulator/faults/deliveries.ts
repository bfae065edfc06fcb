import type { Effect } from '../requests.js';

// "After N items" rules: a subscribe they match counts towards N. Its read is capped at the
// items left before the first of them arms (like maxBatch, so nothing is cut afterwards), and
// the answer's item count is added to each rule. A rule armed meanwhile by other answers fires
// on this one instead.

export interface DeliveryWatch {
  /** The most items the answer may carry now. */
  readonly maxItems: number;
  /**
   * The answer is about to leave with `items` items: an effect replaces it when an armed rule
   * fires. Counted when called in memory; a shared ledger decides whether an armed rule fires.
   */
  delivered(items: number): Promise<Effect | undefined>;
}
