import { acknowledged, type PublishEvent, type ReadEvent } from '../events.js';
import type { HistoryIndex } from '../model.js';
import type { Anomaly, HistoryCheck } from './types.js';

// An acknowledged publish no subscriber received, though one read past it: that subscriber had,
// without a discontinuity between them, a message acknowledged before this one was sent and a
// message sent after this one was acknowledged. A contiguous stream holds everything numbered
// between two of its items, and an acknowledged publish is numbered before any sent later.

interface Segment {
  subscriber: string;
  /** Earliest acknowledgement of a publish in the segment; latest sending. */
  firstAnswered: number;
  lastSent: number;
}

function segmentsOf(index: HistoryIndex): Segment[] {
  const segments: Segment[] = [];
  for (const [subscriber, stream] of index.streams) {
    let open: Segment | undefined;
    for (const { element } of stream) {
      if (element.kind === 'discontinuity') {
        open = undefined;
        continue;
      }
      const publish = index.byPayload.get(element.payload);
      if (publish === undefined) continue;
      if (open === undefined) segments.push((open = { subscriber, firstAnswered: Infinity, lastSent: -Infinity }));
      open.firstAnswered = Math.min(open.firstAnswered, publish.answeredAt);
      open.lastSent = Math.max(open.lastSent, publish.sentAt);
    }
  }
  return segments.sort((a, b) => a.firstAnswered - b.firstAnswered);
}

/** The two answers of `subscriber` around `publish`: the last item before it, the first after. */
function around(index: HistoryIndex, subscriber: string, publish: PublishEvent): ReadEvent[] {
  let last: ReadEvent | undefined;
  for (const { element, read } of index.streams.get(subscriber) ?? []) {
    if (element.kind !== 'item') continue;
    const other = index.byPayload.get(element.payload);
    if (other === undefined) continue;
    if (other.answeredAt < publish.sentAt) last = read;
    else if (other.sentAt > publish.answeredAt) return last === undefined || last === read ? [read] : [last, read];
  }
  return last ? [last] : [];
}

export const lost: HistoryCheck = {
  kind: 'lost',
  finds: 'an acknowledged publish that no subscriber received, though one read past it with no discontinuity',
  source:
    'Contract, part 1: "Every message received carries a sequence number and a sequence page, so that a client can resume where it stopped and detect gaps"; the provider calls delivery best-effort.',
  severity: 'best-effort',
  check(index) {
    const segments = segmentsOf(index);
    // Prefix maxima of lastSent: the furthest any segment starting by then reached.
    const reach: { lastSent: number; subscriber: string }[] = [];
    for (const segment of segments) {
      const previous = reach.at(-1);
      reach.push(previous && previous.lastSent >= segment.lastSent ? previous : segment);
    }
    const anomalies: Anomaly[] = [];
    for (const publish of index.publishes) {
      if (!acknowledged(publish) || index.deliveries.has(publish.payload)) continue;
      // The segments whose first item was acknowledged before this publish was sent.
      let lo = 0;
      let hi = segments.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (segments[mid]!.firstAnswered < publish.sentAt) lo = mid + 1;
        else hi = mid;
      }
      const furthest = lo === 0 ? undefined : reach[lo - 1]!;
      if (furthest === undefined || furthest.lastSent <= publish.answeredAt) continue;
      anomalies.push({
        kind: 'lost',
        message: `${publish.payload} was acknowledged (${publish.status}) and never delivered; ${furthest.subscriber} read past it`,
        publish,
        subscriber: furthest.subscriber,
        reads: around(index, furthest.subscriber, publish),
        at: publish.sentAt,
      });
    }
    return anomalies;
  },
};
