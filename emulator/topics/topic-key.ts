// One topic as one string: the JSON of [cache, topic], so no pair of names can make two topics
// share a key (a separator could appear in a name). Maps keyed by topic use it, and so do the
// Redis store's keys (redis/keys.ts).

/** The key of the topic `topic` in `cache`. */
export function topicKey(cache: string, topic: string): string {
  return JSON.stringify([cache, topic]);
}
