import type { Clock } from '../clock.js';
import type { EmulatorEvents } from '../events.js';
import type { EmulatorSettings } from '../settings.js';
import { InMemoryTopicStore, type TopicStore } from './store.js';
import type { Log } from '../logging.js';

/** The store `--store` names: in memory (the default), or Redis, loaded only then (ioredis costs start-up time). */
export async function openStore(
  settings: EmulatorSettings,
  clock: Clock,
  events: EmulatorEvents,
  log: Log,
): Promise<TopicStore> {
  if (settings.store === 'memory') return new InMemoryTopicStore(settings.caches, settings, clock, events);
  const { RedisTopicStore } = await import('./redis/redis-store.js');
  return RedisTopicStore.open(settings.caches, settings, clock, events, settings.store, settings.storePrefix, log);
}
