// What a subscribe request at a given cursor gets from a topic: the intricate part of
// the API, kept as one pure function so it can be tested exhaustively. Each branch
// is one of the x-emulator-* notes on the subscribe operation in openapi/topics.yaml.

export type FirstSubscribe = 'latest' | 'next' | 'oldest';

export interface Cursor {
  /** The next number the client expects; 0 on a first request. */
  sequenceNumber: number;
  /** The last page the client received; 0 when it does not know. */
  sequencePage: number;
}

/** Where a topic stands: its page, the oldest retained number and the next number to publish. */
export interface TopicPosition {
  page: number;
  oldest: number;
  next: number;
}

export interface Discontinuity {
  last_topic_sequence: number;
  new_topic_sequence: number;
  new_sequence_page: number;
}

export type ReadPlan =
  | { kind: 'wait' }
  | { kind: 'deliver'; discontinuity?: Discontinuity; from: number; count: number };

const WAIT: ReadPlan = { kind: 'wait' };

export function planRead(position: TopicPosition, cursor: Cursor, firstSubscribe: FirstSubscribe, maxBatch: number): ReadPlan {
  const { page, oldest, next } = position;
  const n = cursor.sequenceNumber;
  const retained = next - oldest;
  const deliver = (from: number, discontinuity?: Discontinuity): ReadPlan => ({
    kind: 'deliver',
    from,
    count: Math.min(maxBatch, next - from),
    ...(discontinuity ? { discontinuity } : {}),
  });
  const gap = (resumeAt: number): Discontinuity => ({
    last_topic_sequence: Math.max(0, n - 1),
    new_topic_sequence: resumeAt,
    new_sequence_page: page,
  });

  // A page the topic no longer (or never) had: the topic was reset since the client's last item.
  if (cursor.sequencePage !== 0 && cursor.sequencePage !== page) return deliver(oldest, gap(oldest));

  if (n === 0) {
    if (retained === 0 || firstSubscribe === 'next') return WAIT;
    return firstSubscribe === 'latest' ? deliver(next - 1) : deliver(oldest);
  }
  if (n < oldest) return deliver(oldest, gap(oldest)); // missed messages: a slow consumer
  if (n < next) return deliver(n);
  if (n === next) return WAIT;
  return deliver(next, gap(next)); // ahead of the stream: tell the client where it really is
}

/**
 * The cursor a request waits on. A first request that has to wait waits for the next number to
 * be published (on whatever page is current then), so that it receives every message published
 * after it arrived, even when several arrive before it is answered.
 */
export function waitingCursor(position: TopicPosition, cursor: Cursor): Cursor {
  return cursor.sequenceNumber === 0 ? { sequenceNumber: position.next, sequencePage: 0 } : cursor;
}
