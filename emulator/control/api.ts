import type { Clock, IssuedToken, TokenRequest as TokenInput } from '../../openapi/generated/control-types.js';
import type { TokenRequest } from '../auth/tokens.js';
import type { EmulatorControls } from './controls.js';
import { checked } from './validation.js';

// The control plane as methods of the object startEmulator() returns: the operations of
// /_emulator/ (EmulatorControls), each input checked here, once, against the document's
// schema (an HTTP request's body is checked by its route instead), throwing EmulatorError
// 400 invalid_body on bad input.

export type { TokenInput };

type Unchanged =
  | 'reset'
  | 'state'
  | 'clock'
  | 'faults'
  | 'fault'
  | 'removeFault'
  | 'clearFaults'
  | 'limits'
  | 'chaos'
  | 'stopChaos'
  | 'loadScenarioFile';
type Checked =
  'expireToken' | 'revokeToken' | 'resetTopic' | 'setClock' | 'addFault' | 'setLimits' | 'startChaos' | 'applyScenario';

export interface EmulatorControlApi extends Pick<EmulatorControls, Unchanged | Checked> {
  /** Signs a token in the portable format; it expires ttlSeconds (default 3600) after the clock's reading. */
  issueToken(request: TokenInput): Promise<IssuedToken>;
  /** Moves the clock forward by `ms` (setClock with advanceMs). */
  advanceClock(ms: number): Clock;
}

export function controlApi(controls: EmulatorControls): EmulatorControlApi {
  const c = controls;
  return {
    reset: () => c.reset(),
    state: () => c.state(),
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
    clock: () => c.clock(),
    setClock: (change) => c.setClock(checked('ClockInput', change)),
    advanceClock: (ms) => c.setClock(checked('ClockInput', { advanceMs: ms })),
    addFault: (rule) => c.addFault(checked('FaultRuleInput', rule)),
    faults: () => c.faults(),
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
  };
}
