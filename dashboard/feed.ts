import type { PublishedData } from '../emulator/live/wire.js';

// The live messages of one topic as the dashboard shows them: newest first, with markers where
// the stream is not continuous (a page change, a jump in numbering, events the dashboard did
// not receive). Pure: each function returns a new feed.

/** A `published` message of the event stream (its value a preview). */
export type PublishedEvent = Omit<PublishedData, 'kind'>;

export type MarkerTone = 'page' | 'discontinuity' | 'gap' | 'reconnect' | 'reset';

export type FeedRow =
  | ({ kind: 'message'; key: number } & PublishedEvent)
  | { kind: 'marker'; key: number; tone: MarkerTone; text: string; at: number };

export interface Feed {
  rows: FeedRow[];
  /** The last message seen (or the page a change announced, with 0 for "none yet"). */
  last: { page: number; sequenceNumber: number } | undefined;
}

/** Rows kept per topic; older ones fall off. */
export const FEED_ROWS = 300;
let nextKey = 1;

export const emptyFeed: Feed = { rows: [], last: undefined };

function withRows(feed: Feed, rows: FeedRow[], last: Feed['last']): Feed {
  return { rows: [...rows.reverse(), ...feed.rows].slice(0, FEED_ROWS), last };
}

export function addPublished(feed: Feed, event: PublishedEvent): Feed {
  const rows: FeedRow[] = [];
  const { last } = feed;
  if (last && last.page !== event.page) {
    rows.push({
      kind: 'marker',
      key: nextKey++,
      tone: 'page',
      at: event.at,
      text: `Page boundary: page ${last.page} ended at #${last.sequenceNumber}; page ${event.page} starts at #${event.sequenceNumber}`,
    });
  } else if (last && event.sequenceNumber !== last.sequenceNumber + 1) {
    rows.push({
      kind: 'marker',
      key: nextKey++,
      tone: 'discontinuity',
      at: event.at,
      text: `Discontinuity: #${last.sequenceNumber} then #${event.sequenceNumber} on page ${event.page}`,
    });
  }
  rows.push({ ...event, kind: 'message', key: nextKey++ });
  return withRows(feed, rows, { page: event.page, sequenceNumber: event.sequenceNumber });
}

export function addPageChange(feed: Feed, change: { at: number; page: number }): Feed {
  const before = feed.last ? `page ${feed.last.page} ended at #${feed.last.sequenceNumber}` : 'previous page';
  const marker: FeedRow = {
    kind: 'marker',
    key: nextKey++,
    tone: 'page',
    at: change.at,
    text: `Page changed (discontinuity): ${before}; page ${change.page} numbers from #1`,
  };
  return withRows(feed, [marker], { page: change.page, sequenceNumber: 0 });
}

/** Something between the last row and the next was not seen (a gap, a reconnect). */
export function addMarker(feed: Feed, tone: MarkerTone, text: string, at: number): Feed {
  return withRows(feed, [{ kind: 'marker', key: nextKey++, tone, at, text }], feed.last);
}
