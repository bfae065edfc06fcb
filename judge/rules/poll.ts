import type { JournalEntry } from '../../openapi/generated/control-types.js';
import { MAX_EVIDENCE, type ClientView, type RuleOutcome } from '../rule.js';
import { busiestSecond } from './backoff.js';

// A long-poll client spends its time waiting on the service, not asking it again and again.

/** An answer this quick, with nothing in it, came back "at once". */
export const AT_ONCE_MS = 100;
/**
 * The most polls per second of one subscription after answers that came back at once with
 * nothing new. Ten is far above what a long-polling client needs (it waits on the service)
 * and far below a loop that re-polls without waiting (hundreds per second).
 */
export const NO_SPIN_MAX_POLLS_PER_SECOND = 10;

/**
 * Answers other rules judge the next poll after: failures and 429s (backoff.*), 401/403
 * (auth.*), and answers with items (a client catching up polls again at once, rightly).
 */
function quickAndEmpty(answer: JournalEntry): boolean {
  if (answer.dropped || answer.items.length > 0 || answer.discontinuity) return false;
  if (answer.status !== null && (answer.status >= 500 || [401, 403, 429].includes(answer.status))) return false;
  return answer.durationMs < AT_ONCE_MS;
}

export function checkNoSpin(client: ClientView): RuleOutcome {
  const outcome: RuleOutcome = { occasions: 0, violations: [] };
  for (const subscription of client.subscriptions) {
    const spins = subscription.polls.filter((_poll, i) => i > 0 && quickAndEmpty(subscription.polls[i - 1]!));
    if (spins.length === 0) continue;
    outcome.occasions++;
    const busiest = busiestSecond(spins.map((p) => p.at));
    if (busiest > NO_SPIN_MAX_POLLS_PER_SECOND)
      outcome.violations.push({
        message: `subscription ${subscription.id} on ${subscription.cache}/${subscription.topic} polled ${busiest} times in one second after answers that came back at once (at most ${NO_SPIN_MAX_POLLS_PER_SECOND})`,
        requests: spins.slice(0, MAX_EVIDENCE).map((p) => p.id),
      });
  }
  return outcome;
}
