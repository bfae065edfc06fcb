import type { ClockState, SavedClock } from '../clock.js';
import type { TokenWithdrawal } from '../control/token-withdrawals.js';
import type { ChaosInput } from '../faults/chaos.js';
import type { FaultRuleInput } from '../faults/rule.js';
import type { LimitsProfile } from '../limits/account-limits.js';
import type { TopicContent } from '../topics/content.js';

// The snapshot document (openapi/control.yaml `Snapshot`): the emulator's whole state as plain
// JSON, the same whichever store produced it. Times are ISO clock readings.

export const SNAPSHOT_FORMAT = 'topics-emulator/snapshot';
export const SNAPSHOT_VERSION = 1;

export interface SnapshotFault {
  id: string;
  rule: FaultRuleInput;
  started: boolean;
  matched: number;
  fired: number;
  delivered?: number;
  createdAt: string;
  endsAt?: string;
}

export interface SnapshotTopicReset {
  cache: string;
  topic: string;
  afterSequenceNumber?: number;
  at?: string;
}

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: typeof SNAPSHOT_VERSION;
  takenAt: string;
  lastPage: number;
  topics: TopicContent[];
  topicResets: SnapshotTopicReset[];
  faults: SnapshotFault[];
  chaos: { input: ChaosInput; draws: number; injected: number; randomCalls: number } | null;
  limits: LimitsProfile;
  clock: SavedClock;
  tokenWithdrawals: TokenWithdrawal[];
}

/** What loading a snapshot did (openapi/control.yaml `SnapshotLoaded`). */
export interface SnapshotLoaded {
  topics: number;
  messages: number;
  faults: number;
  tokenWithdrawals: number;
  answeredSubscribers: number;
  clock: ClockState;
}
