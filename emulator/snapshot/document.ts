import type { Snapshot } from '../../openapi/generated/control-types.js';

// The snapshot document (openapi/control.yaml `Snapshot`): the emulator's whole state as plain
// JSON, the same whichever store produced it. Times are ISO clock readings. Its types are the
// document's.

export type {
  Snapshot,
  SnapshotChaos,
  SnapshotClock,
  SnapshotFault,
  SnapshotItem,
  SnapshotLoaded,
  SnapshotTopicReset,
} from '../../openapi/generated/control-types.js';

/**
 * The control plane's part of a snapshot: what replicas on a shared store pass to each other when
 * one loads it (the topics go through the store; scheduled page changes stay on that replica).
 */
export type SnapshotControl = Pick<Snapshot, 'faults' | 'chaos' | 'limits' | 'clock' | 'tokenWithdrawals'>;

/** The control part of a snapshot, as plain data. */
export function controlOf({ faults, chaos, limits, clock, tokenWithdrawals }: Snapshot): SnapshotControl {
  return { faults, chaos, limits, clock, tokenWithdrawals };
}

export const SNAPSHOT_FORMAT: Snapshot['format'] = 'topics-emulator/snapshot';
export const SNAPSHOT_VERSION: Snapshot['version'] = 1;

/** The largest snapshot read, in bytes: a PUT /_emulator/snapshot body or a --state-file. */
export const SNAPSHOT_BYTES_LIMIT = 256 * 1024 * 1024;
