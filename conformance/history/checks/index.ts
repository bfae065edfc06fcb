import type { HistoryIndex } from '../model.js';
import { duplicated } from './duplicated.js';
import { lost } from './lost.js';
import { nonmonotonic } from './nonmonotonic.js';
import { reordered } from './reordered.js';
import { stale } from './stale.js';
import type { Anomaly, HistoryCheck } from './types.js';
import { unannouncedGap } from './unannounced-gap.js';
import { wrongDiscontinuity } from './wrong-discontinuity.js';

export type { Anomaly, AnomalyKind, HistoryCheck } from './types.js';

/** Every check of a stream history, in the order the report lists them. */
export const historyChecks: readonly HistoryCheck[] = [
  lost,
  duplicated,
  reordered,
  unannouncedGap,
  nonmonotonic,
  stale,
  wrongDiscontinuity,
];

export interface CheckResult {
  check: HistoryCheck;
  anomalies: Anomaly[];
  /** Counted against the endpoint: every error; a best-effort kind only when strict. */
  failing: boolean;
}

export function checkHistory(index: HistoryIndex, strict: boolean): CheckResult[] {
  return historyChecks.map((check) => {
    const anomalies = check.check(index).sort((a, b) => a.at - b.at);
    return { check, anomalies, failing: anomalies.length > 0 && (strict || check.severity === 'error') };
  });
}
