import type { JournalEntry } from '../openapi/generated/control-types.js';
import { endOf, isFirstRequest, sameCursor, type SubscribeCursor } from './cursor.js';

// Following a client's subscribes as subscriptions: the chain of polls on one cache/topic in
// which each poll starts after the previous one ended, matched by cursor continuity. A poll
// that starts while every subscription of the topic has a poll in flight starts another.

/** What a subscription's answers so far tell its next poll. */
export interface Position {
  /** Where the answers say to continue; null before the subscription learned anything. */
  expected: SubscribeCursor | null;
  /** Also right after a discontinuity that came alone: its new_topic_sequence + 1. */
  alsoAccepted: SubscribeCursor | null;
  /** What kind of answer set `expected`. */
  basis: 'items' | 'discontinuity' | 'empty' | null;
  /** The journal entry of that answer. */
  basisEntry: JournalEntry | null;
}

export const START: Position = { expected: null, alsoAccepted: null, basis: null, basisEntry: null };

/**
 * The position after one poll's answer (unchanged when it got none: error, drop, client gone).
 * A gRPC stream that ended with an error still delivered what it delivered before it.
 */
export function advance(position: Position, poll: JournalEntry): Position {
  if (poll.status !== 200 && poll.items.length === 0 && poll.discontinuity === null) return position;
  const last = poll.items.at(-1);
  if (last !== undefined && poll.page !== null) {
    return {
      expected: { sequenceNumber: last + 1, sequencePage: poll.page },
      alsoAccepted: null,
      basis: poll.discontinuity ? 'discontinuity' : 'items',
      basisEntry: poll,
    };
  }
  if (poll.discontinuity) {
    const { newTopicSequence, newSequencePage } = poll.discontinuity;
    return {
      expected: { sequenceNumber: newTopicSequence, sequencePage: newSequencePage },
      alsoAccepted: { sequenceNumber: newTopicSequence + 1, sequencePage: newSequencePage },
      basis: 'discontinuity',
      basisEntry: poll,
    };
  }
  // Nothing new: the client keeps the cursor it sent. An empty answer to a first request teaches
  // nothing, so what the subscription knew before still stands (and judges its next poll).
  if (isFirstRequest(poll.cursor)) return position;
  return { expected: poll.cursor, alsoAccepted: null, basis: 'empty', basisEntry: poll };
}

export interface Subscription {
  /** Numbered from 1 within the client, in order of the first poll. */
  id: number;
  cache: string;
  topic: string;
  polls: JournalEntry[];
}

/** How far a poll may seem to start before the previous answer ended: the two times are taken at different points. */
export const CONTINUITY_TOLERANCE_MS = 5;

interface Open {
  subscription: Subscription;
  position: Position;
  /** Each page the subscription received items on, with the first number it received there. */
  firstOnPage: Map<number, number>;
  /** Every page it asked for or received. */
  pages: Set<number>;
  /** The page of its latest items. */
  page: number | null;
}

/**
 * A poll that starts a new read rather than going on with this subscription: a cursor on a
 * page the subscription never asked for nor received (a cursor kept from elsewhere), or page 0
 * ("unsure") at or before the first number it received on its latest page (a read from the
 * start). Both are what a person with curl does on purpose; a client going on sends the page it
 * received, and is judged against it (a client back at new_topic_sequence after a discontinuity
 * too).
 */
function startsNewRead(open: Open, cursor: SubscribeCursor | null): boolean {
  if (cursor === null || isFirstRequest(cursor) || open.page === null) return false;
  if (cursor.sequencePage !== 0) return !open.pages.has(cursor.sequencePage);
  const first = open.firstOnPage.get(open.page);
  return first !== undefined && cursor.sequenceNumber <= first;
}

const fits = (open: Open, cursor: SubscribeCursor | null) =>
  sameCursor(open.position.expected, cursor) || sameCursor(open.position.alsoAccepted, cursor);

/** The client's subscribes (in order of arrival) as subscriptions. */
export function followSubscriptions(subscribes: readonly JournalEntry[]): Subscription[] {
  const open = new Map<string, Open[]>();
  const all: Subscription[] = [];
  for (const poll of subscribes) {
    const key = `${poll.cache}/${poll.topic}`;
    let chains = open.get(key);
    if (!chains) open.set(key, (chains = []));
    const free = chains
      .filter((c) => endOf(c.subscription.polls.at(-1)!) <= poll.at + CONTINUITY_TOLERANCE_MS)
      .sort((a, b) => endOf(b.subscription.polls.at(-1)!) - endOf(a.subscription.polls.at(-1)!));
    let chain =
      free.find((c) => fits(c, poll.cursor)) ??
      free.find((c) => sameCursor(c.subscription.polls.at(-1)!.cursor, poll.cursor)) ??
      free.find((c) => !startsNewRead(c, poll.cursor));
    if (!chain) {
      chain = {
        subscription: { id: all.length + 1, cache: poll.cache ?? '', topic: poll.topic ?? '', polls: [] },
        position: START,
        firstOnPage: new Map(),
        pages: new Set(),
        page: null,
      };
      chains.push(chain);
      all.push(chain.subscription);
    }
    chain.subscription.polls.push(poll);
    chain.position = advance(chain.position, poll);
    if (poll.cursor && poll.cursor.sequencePage !== 0) chain.pages.add(poll.cursor.sequencePage);
    if (poll.status === 200 && poll.page !== null && poll.items.length > 0) {
      if (!chain.firstOnPage.has(poll.page)) chain.firstOnPage.set(poll.page, poll.items[0]!);
      chain.pages.add(poll.page);
      chain.page = poll.page;
    }
  }
  return all;
}

/** Each poll of a subscription with the position its earlier answers left it. */
export function positionsOf(subscription: Subscription): { poll: JournalEntry; position: Position }[] {
  let position = START;
  return subscription.polls.map((poll) => {
    const step = { poll, position };
    position = advance(position, poll);
    return step;
  });
}
