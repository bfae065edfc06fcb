import type { RequestList, RequestMatcher, WaitingSubscriberState } from '../../openapi/generated/control-types.js';
import type { RequestJournal } from '../journal/journal.js';
import type { JournalEntry } from '../journal/query.js';
import type { ReplicaAnswer, ReplicaLink } from '../backend/replica-link.js';

// Reads that cover every replica on a shared store: the journal's listing and count, the
// entries the client rules judge, the waiting subscribers. Each replica answers from its own
// journal and waiting registry (nothing is shared on a request's path); the replica asked merges
// the answers. The questions and answers are plain data (they cross Redis as JSON).

export type Question =
  | { q: 'requests'; matcher: RequestMatcher; limit: number }
  | { q: 'count'; matcher: RequestMatcher }
  | { q: 'clients' }
  | { q: 'waiting' };

/**
 * A journal entry's id on a shared store: the replica's ordinal times this, plus the replica's
 * own count, so two replicas' ids never meet (a replica journals fewer than 2^36 requests).
 */
export const REPLICA_ID_STRIDE = 2 ** 36;

/** What a replica answers from. */
export interface ReplicaHere {
  journal: RequestJournal;
  waitingSubscribers(): WaitingSubscriberState[];
}

/**
 * The matcher for one replica's own journal: `afterId` (a shared id) read as that replica's own
 * count; null when no entry of the replica can be after it.
 */
export function localMatcher(matcher: RequestMatcher, ordinal: number): RequestMatcher | null {
  const { afterId, ...rest } = matcher;
  if (afterId === undefined) return matcher;
  const base = ordinal * REPLICA_ID_STRIDE;
  if (afterId < base) return rest;
  if (afterId >= base + REPLICA_ID_STRIDE) return null;
  return { ...rest, afterId: afterId - base };
}

const shared = (link: ReplicaLink) => (entry: JournalEntry) => ({
  ...entry,
  id: link.ordinal * REPLICA_ID_STRIDE + entry.id,
  replica: link.id,
});

/** This replica's answer to a question (another replica's, or its own). */
export function answerQuestion(here: ReplicaHere, link: ReplicaLink, question: Question): unknown {
  switch (question.q) {
    case 'requests': {
      const matcher = localMatcher(question.matcher, link.ordinal);
      const list = here.journal.list(matcher ?? {}, matcher ? question.limit : 0);
      return { ...list, entries: list.entries.map(shared(link)) };
    }
    case 'count': {
      const matcher = localMatcher(question.matcher, link.ordinal);
      return matcher ? here.journal.count(matcher) : 0;
    }
    case 'clients':
      return here.journal
        .entries()
        .filter((e) => e.plane === 'service' && e.client !== null)
        .map(shared(link));
    case 'waiting':
      return here.waitingSubscribers().map((w) => ({ ...w, replica: link.id }));
  }
}

const answersOf = async <T>(link: ReplicaLink, question: Question): Promise<T[]> =>
  (await link.ask(question)).map((a: ReplicaAnswer) => a.answer as T);

/** Every replica's newest entries the matcher accepts, merged newest first (the clock's `at`), at most `limit`. */
export async function gatherRequests(link: ReplicaLink, matcher: RequestMatcher, limit: number): Promise<RequestList> {
  const lists = await answersOf<RequestList>(link, { q: 'requests', matcher, limit });
  const entries = lists
    .flatMap((l) => l.entries)
    .sort((a, b) => b.at - a.at || b.id - a.id)
    .slice(0, limit);
  const sum = (key: 'journalled' | 'evicted' | 'capacity') => lists.reduce((n, l) => n + l[key], 0);
  return { entries, journalled: sum('journalled'), evicted: sum('evicted'), capacity: sum('capacity') };
}

export async function gatherCount(link: ReplicaLink, matcher: RequestMatcher): Promise<number> {
  return (await answersOf<number>(link, { q: 'count', matcher })).reduce((n, c) => n + c, 0);
}

/** The service requests with a credential of every replica: what the client rules judge, as one journal. */
export async function gatherClientEntries(link: ReplicaLink): Promise<JournalEntry[]> {
  return (await answersOf<JournalEntry[]>(link, { q: 'clients' })).flat();
}

/** Every replica's waiting subscribers, longest waiting first. */
export async function gatherWaiting(link: ReplicaLink): Promise<WaitingSubscriberState[]> {
  return (await answersOf<WaitingSubscriberState[]>(link, { q: 'waiting' }))
    .flat()
    .sort((a, b) => Date.parse(a.since) - Date.parse(b.since));
}
