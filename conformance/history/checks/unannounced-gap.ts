import { readsOf, walkStreams } from './stream-walk.js';
import type { Anomaly, HistoryCheck } from './types.js';

// A number skipped on a page, or a page changed, with no discontinuity before the item after it.

export const unannouncedGap: HistoryCheck = {
  kind: 'unannounced-gap',
  finds: 'a number skipped, or the page changed, with no discontinuity before the next item',
  source:
    'Contract, behavior 3: "When the sequence is not contiguous (for example the page changed), a discontinuity element precedes the next item."',
  severity: 'error',
  check(index) {
    const anomalies: Anomaly[] = [];
    for (const { subscriber, element, read, last, announced } of walkStreams(index)) {
      if (element.kind !== 'item' || last === undefined || announced !== undefined) continue;
      const skipped = element.page === last.page ? element.n > last.n + 1 : element.page > last.page;
      if (!skipped) continue;
      anomalies.push({
        kind: 'unannounced-gap',
        message:
          element.page === last.page
            ? `${subscriber} got ${last.n} then ${element.n} on page ${element.page} with no discontinuity (${element.n - last.n - 1} number(s) skipped)`
            : `${subscriber} got page ${last.page} then page ${element.page} with no discontinuity`,
        ...(index.byPayload.has(element.payload) ? { publish: index.byPayload.get(element.payload)! } : {}),
        subscriber,
        reads: readsOf(last.read, read),
        at: read.answeredAt,
      });
    }
    return anomalies;
  },
};
