import type { Logger } from 'pino';
import { Authenticator } from './auth/authenticator.js';
import { openBackend } from './backend/open.js';
import { Clock } from './clock.js';
import type { EmulatorContext } from './context.js';
import { EmulatorControls } from './control/controls.js';
import { EmulatorEvents } from './events.js';
import { FaultInjector } from './faults/injector.js';
import { AccountLimits, limitsProfileOf } from './limits/account-limits.js';
import { LocalLimitCounts } from './limits/local-counts.js';
import { createLogger } from './logging.js';
import type { EmulatorSettings } from './settings.js';
import { PageChanges } from './topics/page-changes.js';
import { WaitingSubscribers } from './waiting.js';
import { TopicParking } from './service/parking.js';

// The emulator's core, built once and knowing no protocol: the backend (topics, and what
// replicas share), the cache's items and operations, credentials, the registry of waiting subscribers, fault rules and chaos, the
// account limits, page changes, the event stream, and the control plane's operations. Every
// door (the HTTP API, the gRPC port, gRPC-web on the HTTP port) is given it and only translates:
// it decides and applies each operation here, once (start.ts wires the doors to it).

export interface EmulatorCore {
  context: EmulatorContext;
  controls: EmulatorControls;
  /** The process's logger; the HTTP door logs requests through it. */
  logger: Logger;
}

export async function openCore(settings: EmulatorSettings, clock = new Clock()): Promise<EmulatorCore> {
  const logger = createLogger(settings.logLevel, settings.logFormat);
  clock.onTimerError = (error) =>
    logger.error({ err: (error as Error)?.message ?? String(error) }, 'a clock timer failed; the others went on');
  const events = new EmulatorEvents();
  const backend = await openBackend(settings, clock, events, logger);
  const { store, shared } = backend;
  const parking = new TopicParking((cache, topic, cursor, maxItems) => store.read(cache, topic, cursor, maxItems));
  const pageChanges = new PageChanges(store, parking, clock, logger);
  const auth = new Authenticator(settings.apiKeys, settings.signingKey, clock);
  const waiting = new WaitingSubscribers(clock, events, (cache, topic) => parking.count(cache, topic));
  store.listen({
    // Whoever waits on the topic reads it again; a page change scheduled after this number happens.
    topicChanged(cache, topic, published) {
      parking.changed(cache, topic, published);
      if (published !== undefined) pageChanges.published(cache, topic, published);
    },
    // Another replica reset the shared store: this replica's waiting subscribers are answered first.
    clearedElsewhere() {
      waiting.answerAll();
      pageChanges.reset();
    },
    // Another replica made or deleted a cache: told on the event stream here too; a deleted one's
    // subscribers here are answered and its page changes dropped.
    cacheChangedElsewhere(operationId, cache) {
      if (operationId === 'deleteCache') {
        waiting.answerCache(cache);
        pageChanges.forgetCache(cache);
      }
      if (events.listens('control')) events.emit({ kind: 'control', at: clock.now(), operationId });
    },
  });
  const context: EmulatorContext = {
    settings,
    clock,
    log: logger,
    ...backend,
    auth,
    waiting,
    parking,
    pageChanges,
    events,
    faults: new FaultInjector(clock, logger, waiting, shared?.control.firings, settings.maxWaitingSubscribers),
    limits: new AccountLimits(
      limitsProfileOf(settings),
      settings.payloadLimitBytes,
      clock,
      shared?.limitCounts ?? new LocalLimitCounts(clock, waiting),
      logger,
    ),
  };
  const controls = new EmulatorControls(context);
  // Metrics count from the requests' records, whichever door; only the control plane shows them.
  if (settings.controlPlane) controls.metrics.countExchanges(events);
  return { context, controls, logger };
}
