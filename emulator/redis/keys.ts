// Where a Redis store keeps the emulator's state, every key under one prefix (`--store-prefix`):
//   <prefix>t:<id>      hash: page, next (the topic's page and the number its next message gets)
//   <prefix>s:<id>      stream: the page's retained messages, entry id `<number>-1`, field v
//   <prefix>topics      set: every topic's id
//   <prefix>caches      set: every cache's name (the configured ones until a replica makes or deletes one)
//   <prefix>last-page   the greatest page handed out
//   <prefix>page-floor  pages handed out after a reset, a restore or a lost state exceed it
//   <prefix>generation  set once by the first replica; a Redis without the one a replica saw lost its state
//   <prefix>events      the pub/sub channel every change is announced on, in the scripts' order
//   <prefix>control     stream: the control plane's changes since the last reset, entry id `<n>-1`,
//                       fields r (the replica that made it), c (the change, JSON)
//   <prefix>control-n   the number of the last control-plane change
//   <prefix>control-base hash: n (the log holds only the changes after it), c (the control state
//                       the changes up to n led to, JSON; absent when the log starts at a reset)
//   <prefix>fault-counts hash: each fault rule's counters, fields `<id>:m|f|d` (matched, fired, delivered)
//   <prefix>fault-ids   the last fault rule number handed out (replicas take them in blocks)
//   <prefix>ops:, subs:, alive  the account limits' counts, and the replicas whose counts count (limit-counts.ts)
//   <prefix>i:<cache>:<member>  a cache item, natively: a string, hash, set, list or sorted set;
//                       <cache> URI-encoded, <member> its key's bytes in base64url
//   <prefix>im:<cache>  hash: each item of the cache by member: "version size expiresAt"
//   <prefix>item-caches set: the caches that hold items
//   <prefix>item-usage  hash: count, bytes (keys and values) of every item
//   <prefix>item-version the last version given to a change of items
//   <prefix>items       the pub/sub channel every change of items is announced on
// A topic's id is its topic key, the JSON of [cache, topic] (../topic-key.ts).

import { topicKey } from '../topics/topic-key.js';

export interface KeyLayout {
  readonly prefix: string;
  readonly topics: string;
  readonly caches: string;
  readonly lastPage: string;
  readonly pageFloor: string;
  readonly generation: string;
  readonly channel: string;
  readonly control: string;
  readonly controlNumber: string;
  readonly controlBase: string;
  readonly faultCounts: string;
  readonly faultIds: string;
  readonly itemCaches: string;
  readonly itemUsage: string;
  readonly itemVersion: string;
  readonly itemsChannel: string;
  hash(id: string): string;
  stream(id: string): string;
  /** A cache item's key, by its member (its key's bytes in base64url). */
  item(cache: string, member: string): string;
  /** A cache's meta hash: each of its items' version, size and expiry. */
  itemMeta(cache: string): string;
}

export function keyLayout(prefix: string): KeyLayout {
  return {
    prefix,
    topics: `${prefix}topics`,
    caches: `${prefix}caches`,
    lastPage: `${prefix}last-page`,
    pageFloor: `${prefix}page-floor`,
    generation: `${prefix}generation`,
    channel: `${prefix}events`,
    control: `${prefix}control`,
    controlNumber: `${prefix}control-n`,
    controlBase: `${prefix}control-base`,
    faultCounts: `${prefix}fault-counts`,
    faultIds: `${prefix}fault-ids`,
    itemCaches: `${prefix}item-caches`,
    itemUsage: `${prefix}item-usage`,
    itemVersion: `${prefix}item-version`,
    itemsChannel: `${prefix}items`,
    hash: (id) => `${prefix}t:${id}`,
    stream: (id) => `${prefix}s:${id}`,
    item: (cache, member) => `${prefix}i:${encodeURIComponent(cache)}:${member}`,
    itemMeta: (cache) => `${prefix}im:${encodeURIComponent(cache)}`,
  };
}

/** A topic's id in its keys: its topic key (topics/topic-key.ts). */
export const topicId = topicKey;
