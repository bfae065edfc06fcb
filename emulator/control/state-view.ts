import type {
  Limits,
  State,
  StatePage,
  TopicMessages,
  WaitingSubscriberState,
} from '../../openapi/generated/control-types.js';
import { CACHE_BOUNDS } from '../cache/operations.js';
import type { EmulatorContext } from '../context.js';
import { statePageDefaults } from '../documents.js';
import { cacheNotFound } from '../errors.js';
import { previewOf } from '../live/wire.js';
import { topicKey } from '../topics/topic-key.js';
import type { TokenWithdrawals } from './token-withdrawals.js';

// What the control plane shows of the emulator's state (GET /_emulator/state, a topic's
// messages), read from the context without changing it.

/** The state's long lists, a page at a time: StatePage's defaults (openapi/control.yaml). */
export const DEFAULT_PAGE: Required<StatePage> = statePageDefaults;

const pageOf = <T>(list: readonly T[], { offset, limit }: Required<StatePage>): T[] =>
  offset === 0 && list.length <= limit ? [...list] : list.slice(offset, offset + limit);

/** The state, a page of its long lists; on a shared store, this replica's waiting subscribers only. */
export function stateOf(context: EmulatorContext, withdrawals: TokenWithdrawals, page: Required<StatePage>): State {
  const { store, parking, clock, faults, pageChanges, limits } = context;
  const waitingSubscribers = waitingSubscribersOf(context);
  const topics = store.snapshot();
  return {
    caches: store.cacheNames(),
    topics: pageOf(topics, page).map((t) => ({
      cache: t.cache,
      topic: t.topic,
      page: t.page,
      firstSequenceNumber: t.firstRetained,
      lastSequenceNumber: t.lastRetained,
      retainedCount: t.retainedCount,
      nextSequenceNumber: t.nextSequenceNumber,
      waitingSubscribers: parking.count(t.cache, t.topic),
    })),
    topicCount: topics.length,
    waitingSubscribers: pageOf(waitingSubscribers, page),
    waitingSubscriberCount: waitingSubscribers.length,
    cacheItems: cacheItemsOf(context),
    faults: faults.list(),
    endedFaults: faults.ended(),
    scheduled: { topicResets: pageChanges.scheduled(), tokenWithdrawals: withdrawals.scheduled() },
    limits: limits.view(),
    chaos: faults.chaosView(),
    clock: clock.state(),
  };
}

/** The cache's items as memory: expired ones (never answered) dropped first, so only live ones count. */
function cacheItemsOf({ items, clock }: EmulatorContext): State['cacheItems'] {
  return {
    ...items.usage(clock.now()),
    maxCount: CACHE_BOUNDS.maxItems,
    maxBytes: CACHE_BOUNDS.maxTotalBytes,
  };
}

/** A state with every replica's waiting subscribers (the list and each topic's count) and limits' usage. */
export function withEveryReplica(
  state: State,
  waitingSubscribers: WaitingSubscriberState[],
  limits: Limits,
  page: Required<StatePage>,
): State {
  const waitingOn = new Map<string, number>();
  for (const { cache, topic } of waitingSubscribers) {
    const key = topicKey(cache, topic);
    waitingOn.set(key, (waitingOn.get(key) ?? 0) + 1);
  }
  const topics = state.topics.map((t) => ({
    ...t,
    waitingSubscribers: waitingOn.get(topicKey(t.cache, t.topic)) ?? 0,
  }));
  return {
    ...state,
    limits,
    topics,
    waitingSubscribers: pageOf(waitingSubscribers, page),
    waitingSubscriberCount: waitingSubscribers.length,
  };
}

/** This replica's waiting subscribers. */
export function waitingSubscribersOf({ clock, waiting }: Pick<EmulatorContext, 'clock' | 'waiting'>) {
  const now = clock.now();
  const waitingSubscribers: WaitingSubscriberState[] = [];
  for (const subscriber of waiting) {
    const { sequenceNumber, sequencePage } = subscriber.cursor;
    waitingSubscribers.push({
      cache: subscriber.facts.cache,
      topic: subscriber.facts.topic,
      sequenceNumber,
      sequencePage,
      waitedMs: now - subscriber.since,
      since: new Date(subscriber.since).toISOString(),
      client: subscriber.client,
    });
  }
  return waitingSubscribers;
}

/** A topic's retained messages, oldest first, as previews; a topic not used yet is not created. */
export function topicMessagesOf(
  { store }: Pick<EmulatorContext, 'store'>,
  cache: string,
  topic: string,
): TopicMessages {
  if (!store.hasCache(cache)) throw cacheNotFound(cache);
  const found = store.content(cache, topic);
  if (found === undefined) return { cache, topic, page: null, nextSequenceNumber: 1, messages: [] };
  const { page, nextSequenceNumber } = found;
  const messages = found.messages.map(({ sequenceNumber, value }) => ({ sequenceNumber, page, ...previewOf(value) }));
  return { cache, topic, page, nextSequenceNumber, messages };
}
