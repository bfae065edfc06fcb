import type { Authenticator } from './auth/authenticator.js';
import type { SharedBackend } from './backend/backend.js';
import type { Clock } from './clock.js';
import type { EmulatorEvents } from './events.js';
import type { FaultInjector } from './faults/injector.js';
import type { PageChanges } from './topics/page-changes.js';
import type { AccountLimits } from './limits/account-limits.js';
import type { Log } from './logging.js';
import type { EmulatorSettings } from './settings.js';
import type { TopicStore } from './topics/store.js';
import type { WaitingSubscribers } from './waiting.js';

/**
 * What every door and control operation may use: the emulator's state and services, injected
 * once. It knows no protocol: the HTTP door's handler shape is http/operation-handler.ts.
 */
export interface EmulatorContext {
  settings: EmulatorSettings;
  store: TopicStore;
  /** With a shared store (Redis): what the replicas share besides the topics (backend/backend.ts). */
  shared: SharedBackend | undefined;
  auth: Authenticator;
  clock: Clock;
  log: Log;
  /** Fault rules and chaos (the control plane's). */
  faults: FaultInjector;
  /** The account limits profile. */
  limits: AccountLimits;
  /** Subscribers waiting now (long-polls and gRPC streams): the one registry (and count) of them. */
  waiting: WaitingSubscribers;
  /** Page changes on demand and scheduled, each logged with why. */
  pageChanges: PageChanges;
  /** What happens, as one stream: the journal, the dashboard and metrics listen. */
  events: EmulatorEvents;
}
