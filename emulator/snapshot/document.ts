import type { Snapshot } from '../../openapi/generated/control-types.js';

// The snapshot document (openapi/control.yaml `Snapshot`): the emulator's whole state as plain
// JSON, the same whichever store produced it. Times are ISO clock readings. Its types are the
// document's.

export type {
  Snapshot,
  SnapshotChaos,
  SnapshotClock,
  SnapshotFault,
  SnapshotLoaded,
  SnapshotTopicReset,
} from '../../openapi/generated/control-types.js';

export const SNAPSHOT_FORMAT: Snapshot['format'] = 'topics-emulator/snapshot';
export const SNAPSHOT_VERSION: Snapshot['version'] = 1;
