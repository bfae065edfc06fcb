import type { JournalEntry } from '../../openapi/generated/control-types.js';
import { MAX_EVIDENCE, type ClientView, type RuleOutcome } from '../rule.js';

// How a client calls the cache HTTP API beside the topics (Get, Set, Delete Value). The journal
// keeps no query strings, so a call built wrong is read from its answer: 400 `invalid_parameter`
// is what a Set Value without ttl_seconds (or with a bad one) and a call naming its key neither
// way, or both ways, are answered.

const CACHE_OPERATIONS = new Set(['cacheGet', 'cacheSet', 'cacheDelete']);
const NAMES: Record<string, string> = { cacheGet: 'Get Value', cacheSet: 'Set Value', cacheDelete: 'Delete Value' };

const malformed = (r: JournalEntry) => r.status === 400 && r.code === 'invalid_parameter';

/** Every cache call names its key exactly one way, and a Set Value gives a valid ttl_seconds. */
export function checkCacheWellFormed(client: ClientView): RuleOutcome {
  const calls = client.requests.filter((r) => CACHE_OPERATIONS.has(r.operation ?? ''));
  const offending = calls.filter(malformed);
  const kinds = [...new Set(offending.map((r) => NAMES[r.operation!]))].join(', ');
  return {
    occasions: calls.length,
    violations: offending.length
      ? [
          {
            message: `${offending.length} of its ${calls.length} cache calls (${kinds}) were refused 400 invalid_parameter: a Set Value needs ttl_seconds, and every call names its key with exactly one of key and key_base64`,
            requests: offending.slice(0, MAX_EVIDENCE).map((r) => r.id),
          },
        ]
      : [],
  };
}
