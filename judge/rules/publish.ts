import { byTopic, endOf, type ClientView, type RuleOutcome } from '../rule.js';

// A publish refused for what it is (400, 404, 413) will be refused again: sending it unchanged
// cannot help. The journal keeps no bodies, so "unchanged" is read from the answer: the next
// publish of that client to that topic, soon after, refused with the same status and code.

/** How soon a publish refused the same way counts as the same publish sent again. */
export const PUBLISH_RETRY_WINDOW_MS = 2000;

const REFUSALS = new Set([400, 404, 413]);

export function checkPublishNoRetry4xx(client: ClientView): RuleOutcome {
  const outcome: RuleOutcome = { occasions: 0, violations: [] };
  for (const requests of byTopic(client.requests.filter((r) => r.operation === 'publish'))) {
    requests.forEach((refusal, i) => {
      // Both token places is auth.one-place's.
      if (!REFUSALS.has(refusal.status ?? 0) || refusal.code === 'token_in_header_and_query') return;
      outcome.occasions++;
      const next = requests[i + 1];
      if (
        next &&
        next.status === refusal.status &&
        next.code === refusal.code &&
        next.at - endOf(refusal) < PUBLISH_RETRY_WINDOW_MS
      )
        outcome.violations.push({
          message: `a publish to ${refusal.cache}/${refusal.topic} refused ${refusal.status} ${refusal.code ?? ''} was sent again ${Math.round(next.at - endOf(refusal))} ms later and refused the same way`,
          requests: [refusal.id, next.id],
        });
    });
  }
  return outcome;
}
