import type { PublishedData } from '../emulator/live/wire.js';
import type { TopicMessages } from '../openapi/generated/control-types.js';

// The messages of one topic as the dashboard shows them: newest first, those the topic retained
// when it was selected (no time known) below the live ones, with markers where the stream is
// not continuous (a page change, a jump in numbering, events the dashboard did not receive).
// Pure: each function returns a new feed.

/** A `published` message of the event stream (its value a preview). */
export type PublishedEvent = Omit<PublishedData, 'kind'>;

export type MarkerTone = 'page' | 'discontinuity' | 'gap' | 'reconnect' | 'reset';

export type FeedRow =
  | ({ kind: 'message'; key: number } & Omit<PublishedEvent, 'at'> & { at: number | undefined })
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

/** A message already shown (retained, then seen live too) is not added again. */
const shown = (last: Feed['last'], page: number, sequenceNumber: number) =>
  last !== undefined && last.page === page && sequenceNumber <= last.sequenceNumber;

export function addPublished(feed: Feed, event: PublishedEvent): Feed {
  const rows: FeedRow[] = [];
  const { last } = feed;
  if (shown(last, event.page, event.sequenceNumber)) return feed;
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

/**
 * The topic's retained messages (GET /_emulator/topics/{cache}/{topic}/messages) under the live
 * rows newer than them; live rows they repeat are dropped, rows of older pages stay below.
 */
export function addRetained(feed: Feed, retained: TopicMessages): Feed {
  const { page, nextSequenceNumber } = retained;
  if (page === null) return feed;
  const last = nextSequenceNumber - 1;
  const newer = (row: FeedRow) =>
    row.kind === 'marker' || row.page > page || (row.page === page && row.sequenceNumber > last);
  const split = feed.rows.findIndex((row) => !newer(row));
  const above = split === -1 ? feed.rows : feed.rows.slice(0, split);
  const below = split === -1 ? [] : feed.rows.slice(split).filter((row) => row.kind === 'marker' || row.page < page);
  // A message also seen live keeps the time it was seen at.
  const seenAt = new Map<number, number | undefined>();
  for (const row of feed.rows) if (row.kind === 'message' && row.page === page) seenAt.set(row.sequenceNumber, row.at);
  const rows: FeedRow[] = retained.messages
    .map((message) => ({ ...message, cache: retained.cache, topic: retained.topic }))
    .map((message) => ({
      ...message,
      kind: 'message' as const,
      key: nextKey++,
      at: seenAt.get(message.sequenceNumber),
    }))
    .reverse();
  const newest = feed.last && !(feed.last.page < page || (feed.last.page === page && feed.last.sequenceNumber < last));
  return {
    rows: [...above, ...rows, ...below].slice(0, FEED_ROWS),
    last: newest ? feed.last : { page, sequenceNumber: last },
  };
}
