import { acknowledged } from '../events.js';
import { before, numberOf } from '../model.js';
import type { Anomaly, HistoryCheck } from './types.js';

// One publisher's publishes, each awaited before the next was sent, numbered out of that order.

export const reordered: HistoryCheck = {
  kind: 'reordered',
  finds: "one publisher's awaited publishes numbered out of the order it sent them",
  source:
    'The contract is silent; x-emulator-publish-order: a publish answered 204 is numbered, so one sent after that answer gets a greater number (the provider numbers messages as they arrive).',
  severity: 'error',
  check(index) {
    const anomalies: Anomaly[] = [];
    for (const [publisher, publishes] of index.byPublisher) {
      let previous: { payload: string; number: { page: number; n: number } } | undefined;
      for (const publish of publishes) {
        if (!acknowledged(publish)) continue;
        const number = numberOf(index, publish.payload);
        if (number === undefined) continue;
        if (previous !== undefined && before(number, previous.number)) {
          const earlier = index.deliveries.get(previous.payload)![0]!;
          const later = index.deliveries.get(publish.payload)![0]!;
          anomalies.push({
            kind: 'reordered',
            message: `${publisher} sent ${previous.payload} (numbered ${previous.number.n}, page ${previous.number.page}) and, once it was answered, ${publish.payload}, numbered before it (${number.n}, page ${number.page})`,
            publish,
            subscriber: later.subscriber,
            reads: earlier.read === later.read ? [later.read] : [later.read, earlier.read],
            at: publish.sentAt,
          });
        }
        if (previous === undefined || before(previous.number, number)) previous = { payload: publish.payload, number };
      }
    }
    return anomalies;
  },
};
