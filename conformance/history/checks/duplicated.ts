import type { HistoryCheck, Anomaly } from './types.js';

// One payload under two numbers (it was kept twice), or one payload delivered twice to one
// subscriber (it was sent again).

export const duplicated: HistoryCheck = {
  kind: 'duplicated',
  finds: 'one payload under two numbers, or delivered twice to one subscriber',
  source:
    'Contract, part 2: "topic_sequence_number: Sequence number of the message within the page"; behavior 4: the client advances past the last number received.',
  severity: 'error',
  check(index) {
    const anomalies: Anomaly[] = [];
    for (const [payload, deliveries] of index.deliveries) {
      const first = deliveries[0]!;
      const other = deliveries.find((d) => d.n !== first.n || d.page !== first.page);
      const publish = index.byPayload.get(payload);
      if (other !== undefined) {
        anomalies.push({
          kind: 'duplicated',
          message: `${payload} came as ${first.n} (page ${first.page}) and as ${other.n} (page ${other.page})`,
          ...(publish ? { publish } : {}),
          subscriber: other.subscriber,
          reads: first.read === other.read ? [first.read] : [first.read, other.read],
          at: other.read.answeredAt,
        });
        continue;
      }
      const seen = new Map<string, (typeof deliveries)[number]>();
      for (const delivery of deliveries) {
        const earlier = seen.get(delivery.subscriber);
        if (earlier === undefined) {
          seen.set(delivery.subscriber, delivery);
          continue;
        }
        anomalies.push({
          kind: 'duplicated',
          message: `${payload} (${delivery.n}, page ${delivery.page}) was delivered twice to ${delivery.subscriber}`,
          ...(publish ? { publish } : {}),
          subscriber: delivery.subscriber,
          reads: earlier.read === delivery.read ? [delivery.read] : [earlier.read, delivery.read],
          at: delivery.read.answeredAt,
        });
        break;
      }
    }
    return anomalies;
  },
};
