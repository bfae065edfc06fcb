import type { Discontinuity } from '../../openapi/generated/topics-types.js';

// What a subscribe request at a given cursor gets from a topic: the intricate part of
// the API, kept as one pure function so it can be tested exhaustively. Each branch
// is one of the x-emulator-* notes on the subscribe operation in openapi/topics.yaml.

export type FirstSubscribe = 'latest' | 'next' | 'oldest';

/**
 * Whether a discontinuity always comes with the item it announces (x-emulator-discontinuity):
 * 'with-item' waits for that item when it does not exist yet; 'alone' answers at once without it.
 */
export type DiscontinuityMode = 'with-item' | 'alone';

export interface Cursor {
  /** The next number the client expects; 0 on a first request. */
  sequenceNumber: number;
  /** The last page the client received; 0 when it does not know. */
  sequencePage: number;
  /**
   * Set only on a waiting request whose client asked for a number ahead of the stream: that
   * number. The request waits at the stream's end, and its answer opens with a discontinuity.
   */
  askedFor?: number;
}

/** Where a topic stands: its page, the oldest retained number and the next number to publish. */
export interface TopicPosition {
  page: number;
  oldest: number;
  next: number;
}

export type { Discontinuity };

export type ReadPlan =
  { kind: 'wait' } | { kind: 'deliver'; discontinuity?: Discontinuity; from: number; count: number };

const WAIT: ReadPlan = { kind: 'wait' };

export function planRead(
  position: TopicPosition,
  cursor: Cursor,
  firstSubscribe: FirstSubscribe,
  maxBatch: number,
  discontinuityMode: DiscontinuityMode = 'with-item',
): ReadPlan {
  const { page, oldest, next } = position;
  const n = cursor.sequenceNumber;
  const deliver = (from: number, discontinuity?: Discontinuity): ReadPlan => {
    const count = Math.min(maxBatch, next - from);
    // Nothing to deliver yet: wait, unless a discontinuity may be answered alone.
    if (count === 0 && (discontinuity === undefined || discontinuityMode === 'with-item')) return WAIT;
    return { kind: 'deliver', from, count, ...(discontinuity ? { discontinuity } : {}) };
  };
  const gap = (resumeAt: number): Discontinuity => ({
    last_topic_sequence: Math.max(0, (cursor.askedFor ?? n) - 1),
    new_topic_sequence: resumeAt,
    new_sequence_page: page,
  });

  // A page the topic no longer (or never) had: the topic was reset since the client's last item.
  if (cursor.sequencePage !== 0 && cursor.sequencePage !== page) return deliver(oldest, gap(oldest));

  if (n === 0) {
    if (firstSubscribe === 'next') return WAIT;
    return firstSubscribe === 'latest' ? deliver(Math.max(oldest, next - 1)) : deliver(oldest);
  }
  if (n < oldest) return deliver(oldest, gap(oldest)); // missed messages: a slow consumer
  if (n > next) return deliver(next, gap(next)); // ahead of the stream: tell the client where it really is
  // Within the stream, or waiting at its end; a request moved there from ahead of it announces the move.
  return deliver(n, cursor.askedFor === undefined ? undefined : gap(n));
}

/**
 * The cursor a request waits on, pinned to the current page, so that re-planning it after any
 * publish or page change gives the right answer: a first request waits for the next number
 * published (and receives every message published after it arrived); a cursor ahead of the
 * stream waits at the stream's end and keeps the number it asked for (its answer opens with a
 * discontinuity); a page change while waiting makes the cursor's page stale, so the answer is
 * a discontinuity and the first item of the new page. planRead of this cursor on the same
 * position waits again (it is a fixed point).
 */
export function waitingCursor(position: TopicPosition, cursor: Cursor): Cursor {
  const { page, next } = position;
  const n = cursor.sequenceNumber;
  if (cursor.sequencePage !== 0 && cursor.sequencePage !== page) return cursor;
  if (n === 0) return { sequenceNumber: next, sequencePage: page };
  if (n > next) return { sequenceNumber: next, sequencePage: page, askedFor: cursor.askedFor ?? n };
  return { ...cursor, sequencePage: page };
}
