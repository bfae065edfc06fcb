import type {
  Clock,
  IssuedToken,
  RequestLimit,
  RequestList,
  RequestMatcher,
  State,
  StatePage,
  TokenRequest as TokenInput,
} from '../../openapi/generated/control-types.js';
import type { TokenRequest } from '../auth/tokens.js';
import type { EmulatorControls } from './controls.js';
import { checked } from './validation.js';

// The control plane as methods of the object startEmulator() returns: the operations of
// /_emulator/ (EmulatorControls), each input checked here, once, against the document's
// schema (an HTTP request's body is checked by its route instead), throwing EmulatorError
// 400 invalid_body on bad input.

export type { TokenInput };

/** A listing's question: a matcher, and at most how many entries (default 100). */
export type RequestQuery = RequestMatcher & { limit?: RequestLimit };

type Unchanged =
  | 'reset'
  | 'cacheNames'
  | 'createCache'
  | 'deleteCache'
  | 'flushCache'
  | 'clock'
  | 'faults'
  | 'endedFaults'
  | 'fault'
  | 'removeFault'
  | 'clearFaults'
  | 'limits'
  | 'chaos'
  | 'stopChaos'
  | 'loadScenarioFile'
  | 'snapshot'
  | 'clients';
type Checked =
  | 'expireToken'
  | 'revokeToken'
  | 'resetTopic'
  | 'topicMessages'
  | 'setClock'
  | 'addFault'
  | 'setLimits'
  | 'startChaos'
  | 'applyScenario'
  | 'restore'
  | 'countRequests';

export interface EmulatorControlApi extends Pick<EmulatorControls, Unchanged | Checked> {
  /** Signs a token in the portable format; it expires ttlSeconds (default 3600) after the clock's reading. */
  issueToken(request: TokenInput): Promise<IssuedToken>;
  /** Moves the clock forward by `ms` (setClock with advanceMs). */
  advanceClock(ms: number): Clock;
  /**
   * Journalled requests, newest first: those the query's matcher accepts, at most its `limit`
   * (default 100). Asynchronous, like countRequests and clients: with a shared store they cover every replica.
   */
  requests(query?: RequestQuery): Promise<RequestList>;
  /**
   * Everything the emulator holds now: of its long lists (topics, waiting subscribers) a page,
   * at most `limit` (default 10,000) of each after `offset`; `topicCount` and
   * `waitingSubscriberCount` say how many there are.
   */
  state(page?: StatePage): State;
}

export function controlApi(controls: EmulatorControls): EmulatorControlApi {
  const c = controls;
  return {
    reset: () => c.reset(),
    cacheNames: () => c.cacheNames(),
    createCache: (cache) => c.createCache(cache),
    deleteCache: (cache) => c.deleteCache(cache),
    flushCache: (cache) => c.flushCache(cache),
    // Checked (and its defaults applied) only when a page is asked for: most callers want the first.
    state: (page) => (page === undefined ? c.state() : c.state(checked('StatePage', page) as Required<StatePage>)),
    // ttlSeconds: the check applied the schema's default.
    issueToken: async (request) => c.issueToken(checked('TokenRequest', request) as TokenRequest),
    expireToken: (tokenId, input, why) =>
      c.expireToken(checked('TokenId', tokenId), checked('WithdrawalInput', input), why),
    revokeToken: (tokenId, input, why) =>
      c.revokeToken(checked('TokenId', tokenId), checked('WithdrawalInput', input), why),
    resetTopic: (cache, topic, input, why) =>
      c.resetTopic(
        checked('ResourceName', cache),
        checked('ResourceName', topic),
        checked('TopicResetInput', input),
        why,
      ),
    topicMessages: (cache, topic) => c.topicMessages(checked('ResourceName', cache), checked('ResourceName', topic)),
    clock: () => c.clock(),
    setClock: (change) => c.setClock(checked('ClockInput', change)),
    advanceClock: (ms) => c.setClock(checked('ClockInput', { advanceMs: ms })),
    addFault: (rule) => c.addFault(checked('FaultRuleInput', rule)),
    faults: () => c.faults(),
    endedFaults: () => c.endedFaults(),
    fault: (id) => c.fault(id),
    removeFault: (id) => c.removeFault(id),
    clearFaults: () => c.clearFaults(),
    limits: () => c.limits(),
    setLimits: (change) => c.setLimits(checked('LimitsInput', change)),
    chaos: () => c.chaos(),
    startChaos: (input) => c.startChaos(checked('ChaosInput', input)),
    stopChaos: () => c.stopChaos(),
    applyScenario: (scenario) => c.applyScenario(checked('Scenario', scenario)),
    loadScenarioFile: (path) => c.loadScenarioFile(path),
    snapshot: () => c.snapshot(),
    restore: (snapshot) => c.restore(checked('Snapshot', snapshot)),
    // async: a bad input rejects, like what only the journal can refuse.
    requests: async ({ limit, ...matcher } = {}) =>
      c.requests(checked('RequestMatcher', matcher), limit === undefined ? undefined : checked('RequestLimit', limit)),
    countRequests: async (matcher) => c.countRequests(checked('RequestMatcher', matcher)),
    clients: () => c.clients(),
  };
}
