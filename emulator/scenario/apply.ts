import type {
  Chaos,
  ChaosInput,
  Clock,
  ClockInput,
  Fault,
  FaultRuleInput,
  Limits,
  LimitsInput,
  Scenario,
  ScenarioApplied,
  ScheduledTopicReset,
  TokenWithdrawal,
  TopicReset,
  TopicResetInput,
  WithdrawalInput,
} from '../../openapi/generated/control-types.js';

// Applying a scenario is nothing but the control plane's own operations, in a fixed order:
// clock (so later times count from it), limits, chaos, faults, topic resets, token withdrawals.
// The scenario arrives checked as a whole, so its parts are not checked again.

export type { Scenario as ScenarioInput, ScenarioApplied };

/** The control operations a scenario is made of (EmulatorControls has them). */
export interface ScenarioSteps {
  clock(): Clock;
  setClock(change: ClockInput): Clock;
  setLimits(change: LimitsInput): Limits;
  startChaos(input: ChaosInput): Chaos;
  addFault(rule: FaultRuleInput): Fault;
  resetTopic(cache: string, topic: string, when: TopicResetInput, why: string): TopicReset | ScheduledTopicReset;
  expireToken(tokenId: string, input: WithdrawalInput, why: string): TokenWithdrawal;
  revokeToken(tokenId: string, input: WithdrawalInput, why: string): TokenWithdrawal;
}

export function applyScenario(controls: ScenarioSteps, scenario: Scenario): ScenarioApplied {
  const clock = scenario.clock ? controls.setClock(scenario.clock) : controls.clock();
  const limits = scenario.limits ? controls.setLimits(scenario.limits) : undefined;
  const chaos = scenario.chaos ? controls.startChaos(scenario.chaos) : undefined;
  const why = scenario.name ? `scenario '${scenario.name}'` : 'scenario';
  return {
    ...(scenario.name !== undefined ? { name: scenario.name } : {}),
    clock,
    ...(limits ? { limits } : {}),
    ...(chaos ? { chaos } : {}),
    faults: (scenario.faults ?? []).map((rule) => controls.addFault(rule)),
    topicResets: (scenario.topicResets ?? []).map(({ cache, topic, ...when }) =>
      controls.resetTopic(cache, topic, when, why),
    ),
    tokenWithdrawals: (scenario.tokens ?? []).map(({ tokenId, action, ...when }) =>
      action === 'expire' ? controls.expireToken(tokenId, when, why) : controls.revokeToken(tokenId, when, why),
    ),
  };
}
