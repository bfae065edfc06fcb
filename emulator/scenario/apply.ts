import type { ChaosInput, ChaosView } from '../faults/chaos.js';
import type { ScheduledTopicReset, TopicReset } from '../topics/page-changes.js';
import type { FaultRuleInput, FaultView } from '../faults/rule.js';
import type { LimitsProfile, LimitsView } from '../limits/account-limits.js';
import type { ClockState } from '../clock.js';
import type { ClockInput, EmulatorControls } from '../control/controls.js';
import type { TokenWithdrawal } from '../control/token-withdrawals.js';

// Applying a scenario is nothing but the control plane's own operations, in a fixed order:
// clock (so later times count from it), limits, chaos, faults, topic resets, token withdrawals.

export interface ScenarioInput {
  name?: string;
  description?: string;
  clock?: ClockInput;
  limits?: Partial<LimitsProfile>;
  chaos?: ChaosInput;
  faults?: FaultRuleInput[];
  topicResets?: { cache: string; topic: string; afterSequenceNumber?: number; afterMs?: number }[];
  tokens?: { tokenId: string; action: 'expire' | 'revoke'; afterMs?: number }[];
}

export interface ScenarioApplied {
  name?: string;
  faults: FaultView[];
  topicResets: (TopicReset | ScheduledTopicReset)[];
  tokenWithdrawals: TokenWithdrawal[];
  limits?: LimitsView;
  chaos?: ChaosView;
  clock: ClockState;
}

export function applyScenario(controls: EmulatorControls, scenario: ScenarioInput): ScenarioApplied {
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
    tokenWithdrawals: (scenario.tokens ?? []).map(({ tokenId, action, afterMs }) =>
      action === 'expire'
        ? controls.expireToken(tokenId, { afterMs }, why)
        : controls.revokeToken(tokenId, { afterMs }, why),
    ),
  };
}
