import { readsOf, walkStreams } from './stream-walk.js';
import type { Anomaly, HistoryCheck } from './types.js';

// A discontinuity whose new number or page is not that of the item that follows it.

export const wrongDiscontinuity: HistoryCheck = {
  kind: 'wrong-discontinuity',
  finds: 'a discontinuity whose new_topic_sequence or new_sequence_page is not what followed it',
  source:
    'Contract, part 2: "new_topic_sequence: Sequence number from which delivery continues. new_sequence_page: Page that applies from then on."',
  severity: 'error',
  check(index) {
    const anomalies: Anomaly[] = [];
    for (const { subscriber, element, read, announced } of walkStreams(index)) {
      if (element.kind !== 'item' || announced === undefined) continue;
      if (element.n === announced.next && element.page === announced.page) continue;
      anomalies.push({
        kind: 'wrong-discontinuity',
        message: `${subscriber} was told delivery continues at ${announced.next} (page ${announced.page}), then given ${element.n} (page ${element.page})`,
        subscriber,
        reads: readsOf(announced.read, read),
        at: read.answeredAt,
      });
    }
    return anomalies;
  },
};
