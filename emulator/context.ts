import type { Authenticator } from './auth/authenticator.js';
import type { ItemStore } from './cache/store.js';
import type { Backend } from './backend/backend.js';
import type { Clock } from './clock.js';
import type { EmulatorEvents } from './events.js';
import type { FaultInjector } from './faults/injector.js';
import type { PageChanges } from './topics/page-changes.js';
import type { AccountLimits } from './limits/account-limits.js';
import type { Log } from './logging.js';
import type { EmulatorSettings } from './settings.js';
import type { WaitingSubscribers } from './waiting.js';
import type { TopicParking } from './service/parking.js';

/**
 * What every door and control operation may use: the emulator's state and services, injected
 * once. It knows no protocol: the HTTP door's handler shape is http/operation-handler.ts. Its
 * backend (`store`, and `shared` on a shared store) is one of two kinds, told apart by `shared`:
 * a door that answers differently on each (a publish answered at once, or once the shared store
 * numbered it) chooses when it is built.
 */
export type EmulatorContext = EmulatorServices & Backend;

/** The context, but for its backend. */
export interface EmulatorServices {
  settings: EmulatorSettings;
  auth: Authenticator;
  clock: Clock;
  log: Log;
  /** Fault rules and chaos (the control plane's). */
  faults: FaultInjector;
  /** The account limits profile. */
  limits: AccountLimits;
  /** Subscribers waiting now (long-polls and gRPC streams): the one registry (and count) of them. */
  waiting: WaitingSubscribers;
  /** Who waits on which topic for its next change (a long-poll, a stream that caught up); the store tells it of changes. */
  parking: TopicParking;
  /** Page changes on demand and scheduled, each logged with why. */
  pageChanges: PageChanges;
  /** What happens, as one stream: the journal, the dashboard and metrics listen. */
  events: EmulatorEvents;
  /** The cache's items beside the topics: each call's operation runs on them once (`run`), on the emulator's clock. */
  items: ItemStore;
}
