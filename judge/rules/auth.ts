import type { JournalEntry } from '../../openapi/generated/control-types.js';
import { MAX_EVIDENCE, type ClientView, type RuleOutcome } from '../rule.js';

// How a client presents its credential, and what it does when the credential is refused.

function everyRequest(client: ClientView, wrong: (r: JournalEntry) => boolean, what: string): RuleOutcome {
  const offending = client.requests.filter(wrong);
  return {
    occasions: client.requests.filter((r) => r.credentialPlace !== 'none').length,
    violations: offending.length
      ? [
          {
            message: `${offending.length} of its ${client.requests.length} requests ${what}`,
            requests: offending.slice(0, MAX_EVIDENCE).map((r) => r.id),
          },
        ]
      : [],
  };
}

/** The token is never in both the Authorization header and the token query parameter. */
export function checkOnePlace(client: ClientView): RuleOutcome {
  return everyRequest(client, (r) => r.credentialPlace === 'both', 'sent the token in both the header and the query');
}

/** The Authorization header carries the raw token, no `Bearer ` prefix. */
export function checkRawToken(client: ClientView): RuleOutcome {
  return everyRequest(client, (r) => r.bearer, "sent 'Bearer ' before the token");
}

const refused = (r: JournalEntry) => (r.status === 401 || r.status === 403) && !r.bearer;

/**
 * After a 401 or 403, the same credential is retried at most once on that operation and topic.
 * (A client identity is a credential: a client that fetched a new token is another identity.)
 * The 401 a `Bearer ` prefix earns is auth.raw-token's.
 */
export function checkNoRetryUnchanged(client: ClientView): RuleOutcome {
  const outcome: RuleOutcome = { occasions: 0, violations: [] };
  const byTarget = new Map<string, JournalEntry[]>();
  for (const r of client.requests) {
    const key = `${r.operation} ${r.cache}/${r.topic}`;
    let list = byTarget.get(key);
    if (!list) byTarget.set(key, (list = []));
    list.push(r);
  }
  for (const requests of byTarget.values()) {
    let first: JournalEntry | undefined;
    let again: JournalEntry[] = [];
    const judge = () => {
      if (first && again.length > 1)
        outcome.violations.push({
          message: `${first.status} ${first.code ?? ''} on ${first.operation} ${first.cache}/${first.topic}, then ${again.length} more tries with the same credential`,
          requests: [first, ...again].slice(0, MAX_EVIDENCE).map((r) => r.id),
        });
      first = undefined;
      again = [];
    };
    for (const r of requests) {
      if (!refused(r)) {
        judge();
        continue;
      }
      if (first) again.push(r);
      else {
        first = r;
        outcome.occasions++;
      }
    }
    judge();
  }
  return outcome;
}
