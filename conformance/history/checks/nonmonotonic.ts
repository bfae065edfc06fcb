import { readsOf, walkStreams } from './stream-walk.js';
import type { Anomaly, HistoryCheck } from './types.js';

// A subscriber given a number at or below one it already had on the same page (or an earlier page).

export const nonmonotonic: HistoryCheck = {
  kind: 'nonmonotonic',
  finds: 'a subscriber given a number at or below one it already had, on the same page, or an earlier page',
  source:
    'Contract, behavior 4: "The client advances by setting sequence_number to the last received topic_sequence_number + 1 and sequence_page to the last received page."',
  severity: 'error',
  check(index) {
    const anomalies: Anomaly[] = [];
    for (const { subscriber, element, read, last } of walkStreams(index)) {
      if (element.kind !== 'item' || last === undefined) continue;
      if (element.page > last.page || (element.page === last.page && element.n > last.n)) continue;
      anomalies.push({
        kind: 'nonmonotonic',
        message: `${subscriber} had ${last.n} (page ${last.page}) and was then given ${element.n} (page ${element.page})`,
        ...(index.byPayload.has(element.payload) ? { publish: index.byPayload.get(element.payload)! } : {}),
        subscriber,
        reads: readsOf(last.read, read),
        at: read.answeredAt,
      });
    }
    return anomalies;
  },
};
