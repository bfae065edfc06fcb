import type { ItemStore } from '../cache/store.js';
import type { SharedControl } from '../control/shared-changes.js';
import type { LimitCounts } from '../limits/counts.js';
import type { TopicStore } from '../topics/store.js';
import type { ReplicaLink } from './replica-link.js';

// The backend `--store` names, as the parts the rest of the emulator uses apart: the topics, and
// with a shared store (Redis) what every replica shares besides them. In memory there is only
// the topics: this process is the whole emulator, and the account limits count here
// (limits/local-counts.ts). The cache's items sit beside the topics in either.

/** One or the other, known when the backend opens: what is sync or async follows from it. */
export type Backend = MemoryBackend | SharedStoreBackend;

export interface MemoryBackend {
  /** The caches and their topics: a message is numbered at once. */
  store: TopicStore<number>;
  /** The cache's items, in this process. */
  items: ItemStore;
  shared: undefined;
}

export interface SharedStoreBackend {
  /** The caches and their topics: a message is numbered once the shared store has numbered it. */
  store: TopicStore<Promise<number>>;
  /** The cache's items, kept in the shared store (every replica reads and changes the same ones). */
  items: ItemStore;
  /** What replicas on one shared store share besides the topics. */
  shared: SharedBackend;
}

export interface SharedBackend {
  /** The control plane's changes every replica applies, and the fault rules' ledger. */
  control: SharedControl;
  /** The account limits, counted for every replica at once. */
  limitCounts: LimitCounts;
  /** The replicas serving the same emulator, for reads that cover all of them. */
  replicas: ReplicaLink;
  /** Tells `observer` each call's real milliseconds, by what it called (a Redis script's name). */
  observeRoundTrips(observer: ((call: string, latencyMs: number) => void) | undefined): void;
}
