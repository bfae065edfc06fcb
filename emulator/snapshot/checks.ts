import { lastClockReadingMs } from '../documents.js';
import type { Snapshot } from './document.js';
import { topicKey } from '../topics/topic-key.js';

// A snapshot's own consistency, beyond its schema: each check a small named function that
// names the first problem it finds (as `body.<path> ...`, like the schema's messages), or
// answers undefined. Each is proven by a broken snapshot in test/snapshot/snapshot.test.ts.

/** What a snapshot is checked against: the emulator it is loaded into. */
export interface SnapshotTarget {
  caches: ReadonlySet<string>;
  /** --payload-limit: no message may be larger than a publish could be. */
  payloadLimitBytes: number;
}

export type SnapshotCheck = (snapshot: Snapshot, target: SnapshotTarget) => string | undefined;

function unknownCache(cache: string, caches: ReadonlySet<string>): string {
  return `'${cache}' is not a configured cache (configured: ${[...caches].join(', ')})`;
}

export const topicsInConfiguredCaches: SnapshotCheck = (snapshot, { caches }) => {
  const i = snapshot.topics.findIndex((t) => !caches.has(t.cache));
  return i < 0 ? undefined : `body.topics.${i}.cache ${unknownCache(snapshot.topics[i]!.cache, caches)}`;
};

export const eachTopicOnce: SnapshotCheck = (snapshot) => {
  const seen = new Set<string>();
  for (const [i, { cache, topic }] of snapshot.topics.entries()) {
    const key = topicKey(cache, topic);
    if (seen.has(key)) return `body.topics.${i} names ${cache}/${topic} a second time`;
    seen.add(key);
  }
  return undefined;
};

/** Messages are numbered one after another up to nextSequenceNumber - 1 (the last one published). */
export const messagesNumberedWithoutGaps: SnapshotCheck = (snapshot) => {
  for (const [i, topic] of snapshot.topics.entries()) {
    const first = topic.nextSequenceNumber - topic.messages.length;
    if (first < 1)
      return `body.topics.${i} has ${topic.messages.length} messages, more than were numbered before nextSequenceNumber ${topic.nextSequenceNumber}`;
    const j = topic.messages.findIndex((m, k) => m.sequenceNumber !== first + k);
    if (j >= 0)
      return `body.topics.${i}.messages.${j}.sequenceNumber must be ${first + j} (messages are numbered without gaps up to nextSequenceNumber - 1)`;
  }
  return undefined;
};

/** Bytes of a message as published: text as UTF-8, binary as the bytes its base64 holds. */
function sizeOf(value: Snapshot['topics'][number]['messages'][number]['value']): number {
  if ('text' in value) return Buffer.byteLength(value.text, 'utf8');
  const padding = value.binary.endsWith('==') ? 2 : value.binary.endsWith('=') ? 1 : 0;
  return Math.floor((value.binary.length * 3) / 4) - padding;
}

/** No message is larger than a publish to this emulator could be (--payload-limit). */
export const messagesWithinPayloadLimit: SnapshotCheck = (snapshot, { payloadLimitBytes }) => {
  for (const [i, topic] of snapshot.topics.entries()) {
    const j = topic.messages.findIndex((m) => sizeOf(m.value) > payloadLimitBytes);
    if (j >= 0)
      return `body.topics.${i}.messages.${j} is ${sizeOf(topic.messages[j]!.value)} bytes, more than the payload limit (${payloadLimitBytes})`;
  }
  return undefined;
};

export const faultIdsUnique: SnapshotCheck = (snapshot) => {
  const seen = new Set<string>();
  for (const [i, { id }] of snapshot.faults.entries()) {
    if (seen.has(id)) return `body.faults.${i}.id '${id}' is used twice`;
    seen.add(id);
  }
  return undefined;
};

export const topicResetsInConfiguredCaches: SnapshotCheck = (snapshot, { caches }) => {
  const i = snapshot.topicResets.findIndex((r) => !caches.has(r.cache));
  return i < 0 ? undefined : `body.topicResets.${i}.cache ${unknownCache(snapshot.topicResets[i]!.cache, caches)}`;
};

/** Every time is one the clock can show (a leap second, say, is not). */
export const timesReadable: SnapshotCheck = (snapshot) => {
  const times: [string, string | undefined][] = [
    ['body.takenAt', snapshot.takenAt],
    ...snapshot.faults.flatMap((f, i): [string, string | undefined][] => [
      [`body.faults.${i}.createdAt`, f.createdAt],
      [`body.faults.${i}.endsAt`, f.endsAt],
    ]),
    ...snapshot.topicResets.map((r, i): [string, string | undefined] => [`body.topicResets.${i}.at`, r.at]),
    ...snapshot.tokenWithdrawals.map((w, i): [string, string | undefined] => [`body.tokenWithdrawals.${i}.at`, w.at]),
  ];
  const bad = times.find(([, time]) => time !== undefined && !(Math.abs(Date.parse(time)) <= lastClockReadingMs));
  return bad && `${bad[0]} '${bad[1]}' is not a time the clock can show`;
};

/** A real clock's offset keeps it before the last date there is. */
export const clockInRange: SnapshotCheck = (snapshot) =>
  snapshot.clock.mode === 'real' && Date.now() + snapshot.clock.offsetMs > lastClockReadingMs
    ? `body.clock.offsetMs takes the clock past ${new Date(lastClockReadingMs).toISOString()}`
    : undefined;

/** Items are in configured caches, each key once per cache. */
export const itemsInConfiguredCachesOnce: SnapshotCheck = (snapshot, { caches }) => {
  const seen = new Set<string>();
  for (const [i, { cache, key }] of (snapshot.items ?? []).entries()) {
    if (!caches.has(cache)) return `body.items.${i}.cache ${unknownCache(cache, caches)}`;
    const id = `${cache}\u0000${key}`;
    if (seen.has(id)) return `body.items.${i} names the key of an item before it in cache '${cache}' a second time`;
    seen.add(id);
  }
  return undefined;
};

/** A collection item has members (an emptied collection is deleted, never kept) and no value of its own. */
export const collectionsHaveMembers: SnapshotCheck = (snapshot) => {
  for (const [i, { value, collection }] of (snapshot.items ?? []).entries()) {
    if (collection === undefined) continue;
    const members =
      'fields' in collection ? collection.fields : 'values' in collection ? collection.values : collection.elements;
    if (members.length === 0) return `body.items.${i}.collection has no members (an empty collection is not kept)`;
    if (value !== '') return `body.items.${i}.value must be empty for a collection (its members are in collection)`;
  }
  return undefined;
};

export const snapshotChecks: readonly SnapshotCheck[] = [
  collectionsHaveMembers,
  topicsInConfiguredCaches,
  itemsInConfiguredCachesOnce,
  eachTopicOnce,
  messagesNumberedWithoutGaps,
  messagesWithinPayloadLimit,
  faultIdsUnique,
  topicResetsInConfiguredCaches,
  timesReadable,
  clockInRange,
];
