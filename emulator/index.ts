import { resolveSettings, type EmulatorSettings } from './settings.js';
import { startWith, type RunningEmulator } from './start.js';

// The package's entry: starting an emulator in this process, and the types its users meet.

export type { EmulatorSettings } from './settings.js';
export { DEV_API_KEY, defaultSettings, SettingsError } from './settings.js';
export type { Permission, Role } from './auth/permissions.js';
export type { IssuedToken, TokenRequest } from './auth/tokens.js';
export type { TopicSnapshot } from './topics/topic.js';
export type { EmulatorControlApi, TokenInput } from './control/api.js';
export type { Snapshot, SnapshotLoaded } from './snapshot/document.js';
export type {
  ClockInput,
  State as EmulatorState,
  ResetResult,
  TopicResetInput,
} from '../openapi/generated/control-types.js';
export type {
  ClientFindings,
  ClientList,
  ClientViolation,
  JournalEntry,
  RequestCount,
  RequestList,
  RequestMatcher,
} from '../openapi/generated/control-types.js';
export type { TokenWithdrawal } from './control/token-withdrawals.js';
export type { ChaosInput, ChaosKind, ChaosView } from './faults/chaos.js';
export type { ScheduledTopicReset, TopicReset } from './topics/page-changes.js';
export type { FaultRuleInput, FaultView } from './faults/rule.js';
export type { LimitsProfile, LimitsView } from './limits/account-limits.js';
export type { ScenarioApplied, ScenarioInput } from './scenario/apply.js';
export type { CredentialPlace, DecidedBy, ExchangeFacts, SubscribeCursor } from './exchange.js';
export type { RequestQuery } from './control/api.js';
export { EmulatorError } from './errors.js';
export { version } from './version.js';
export type { RunningEmulator } from './start.js';

/** Starts an emulator in this process. `port: 0` picks a free port. */
export async function startEmulator(options: Partial<EmulatorSettings> = {}): Promise<RunningEmulator> {
  return startWith(resolveSettings(options));
}
