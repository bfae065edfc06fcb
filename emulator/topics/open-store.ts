import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { EmulatorEvents } from '../events.js';
import type { EmulatorSettings } from '../settings.js';
import { InMemoryTopicStore, type TopicStore } from './store.js';

/** The store `--store` names: in memory (the default), or Redis, loaded only then (ioredis costs start-up time). */
export async function openStore(
  settings: EmulatorSettings,
  clock: Clock,
  events: EmulatorEvents,
  log: FastifyBaseLogger,
): Promise<TopicStore> {
  if (settings.store === 'memory') return new InMemoryTopicStore(settings.caches, settings, clock, events);
  const { RedisTopicStore } = await import('./redis/redis-store.js');
  return RedisTopicStore.open(settings.caches, settings, clock, events, settings.store, settings.storePrefix, log);
}

/** The URL without its password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured URL';
  }
}
