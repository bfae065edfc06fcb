import { acknowledged } from '../events.js';
import { before, numberOf } from '../model.js';
import type { Anomaly, HistoryCheck } from './types.js';

// A resumed read answered with nothing (or held past the client's patience) although a publish
// at or after its cursor had been acknowledged before the read was sent: the endpoint answered
// from a view older than what it had acknowledged (a replica behind, a cache in front).

export const stale: HistoryCheck = {
  kind: 'stale',
  finds: 'a resumed read answered empty though a publish at or past its cursor was acknowledged before it was sent',
  source:
    'Contract, behavior 1: "The request blocks until at least one message or one discontinuity element is available"; the provider calls delivery best-effort.',
  severity: 'best-effort',
  check(index) {
    // Acknowledged publishes with a known number, by acknowledgement time, with the greatest number so far.
    const known = index.publishes
      .filter(acknowledged)
      .map((publish) => ({ publish, number: numberOf(index, publish.payload) }))
      .filter(
        (k): k is { publish: (typeof k)['publish']; number: { page: number; n: number } } => k.number !== undefined,
      )
      .sort((a, b) => a.publish.answeredAt - b.publish.answeredAt);
    const greatest: (typeof known)[number][] = [];
    for (const k of known) {
      const previous = greatest.at(-1);
      greatest.push(previous && !before(previous.number, k.number) ? previous : k);
    }
    const anomalies: Anomaly[] = [];
    for (const [subscriber, reads] of index.reads) {
      for (const read of reads) {
        const empty =
          (read.status === 200 && read.elements.length === 0) || (read.status === null && read.error === 'timeout');
        if (!empty || read.cursor.n === 0) continue;
        let lo = 0;
        let hi = known.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (known[mid]!.publish.answeredAt < read.sentAt) lo = mid + 1;
          else hi = mid;
        }
        const owed = lo === 0 ? undefined : greatest[lo - 1]!;
        if (owed === undefined || before(owed.number, { page: read.cursor.page, n: read.cursor.n })) continue;
        anomalies.push({
          kind: 'stale',
          message: `${subscriber} read at ${read.cursor.n} (page ${read.cursor.page}) and got nothing, though ${owed.publish.payload} (${owed.number.n}, page ${owed.number.page}) was acknowledged before it asked`,
          publish: owed.publish,
          subscriber,
          reads: [read],
          at: read.sentAt,
        });
      }
    }
    return anomalies;
  },
};
