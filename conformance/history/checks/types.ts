import type { PublishEvent, ReadEvent } from '../events.js';
import type { HistoryIndex } from '../model.js';

export type AnomalyKind =
  'lost' | 'duplicated' | 'reordered' | 'unannounced-gap' | 'nonmonotonic' | 'stale' | 'wrong-discontinuity';

/** One anomaly, with its witness: the publish, the subscriber and the answers around it. */
export interface Anomaly {
  kind: AnomalyKind;
  message: string;
  publish?: PublishEvent;
  subscriber?: string;
  /** The answers around the anomaly, in order (one or two). */
  reads: ReadEvent[];
  /** When it happened, for the earliest witness. */
  at: number;
}

export interface HistoryCheck {
  kind: AnomalyKind;
  /** What it finds, in one sentence. */
  finds: string;
  /** The contract's sentence it rests on, or the note where the contract is silent. */
  source: string;
  /** `best-effort`: the provider promises delivery on a best-effort basis; against a live endpoint it warns unless --strict. */
  severity: 'error' | 'best-effort';
  check(index: HistoryIndex): Anomaly[];
}
