import type { SharedStoreBackend } from '../backend/backend.js';
import type { Clock } from '../clock.js';
import type { EmulatorEvents } from '../events.js';
import type { Log } from '../logging.js';
import type { EmulatorSettings } from '../settings.js';
import { RedisTopicStore } from './redis-store.js';

/**
 * The backend on Redis: the topics (a mirror in step with Redis), and on the same two
 * connections the control log, the fault ledger, the limit counts and the replica registry.
 */
export async function openRedisBackend(
  settings: EmulatorSettings,
  clock: Clock,
  events: EmulatorEvents,
  log: Log,
): Promise<SharedStoreBackend> {
  const store = await RedisTopicStore.open(
    settings.caches,
    settings,
    clock,
    events,
    settings.store,
    settings.storePrefix,
    log,
  );
  return {
    store,
    items: store.items,
    shared: {
      control: store.sharedControl,
      limitCounts: store.limitCounts(),
      replicas: store.replicas,
      observeRoundTrips: (observer) => store.observeRoundTrips(observer),
    },
  };
}
