import type { JournalEntry } from '../openapi/generated/control-types.js';

// Reading a journalled poll's cursor and timing: what the subscriptions and the rules share.

/** The cursor a poll sent, as the journal records it. */
export type SubscribeCursor = NonNullable<JournalEntry['cursor']>;

/** When the answer had left, or the connection closed (clock ms). */
export const endOf = (entry: JournalEntry): number => entry.at + entry.durationMs;

/** A first request: no cursor, or 0/0. */
export const isFirstRequest = (cursor: SubscribeCursor | null): boolean =>
  cursor === null || (cursor.sequenceNumber === 0 && cursor.sequencePage === 0);

export const sameCursor = (a: SubscribeCursor | null, b: SubscribeCursor | null): boolean =>
  a !== null && b !== null && a.sequenceNumber === b.sequenceNumber && a.sequencePage === b.sequencePage;

export const showCursor = (cursor: SubscribeCursor | null): string =>
  cursor === null ? 'no cursor' : `${cursor.sequenceNumber} on page ${cursor.sequencePage}`;
