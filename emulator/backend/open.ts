import type { Clock } from '../clock.js';
import type { EmulatorEvents } from '../events.js';
import type { Log } from '../logging.js';
import type { EmulatorSettings } from '../settings.js';
import { MemoryItemStore } from '../cache/store.js';
import { InMemoryTopicStore } from '../topics/store.js';
import type { Backend } from './backend.js';

/** Opens the backend: in memory (the default), or Redis, loaded only then (ioredis costs start-up time). */
export async function openBackend(
  settings: EmulatorSettings,
  clock: Clock,
  events: EmulatorEvents,
  log: Log,
): Promise<Backend> {
  if (settings.store === 'memory') {
    return {
      store: new InMemoryTopicStore(settings.caches, settings, clock, events),
      items: new MemoryItemStore(clock),
      shared: undefined,
    };
  }
  const { openRedisBackend } = await import('../redis/open.js');
  return openRedisBackend(settings, clock, events, log);
}
