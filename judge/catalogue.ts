import type { ClientRule } from './rule.js';
import { checkNoRetryUnchanged, checkOnePlace, checkRawToken } from './rules/auth.js';
import { checkExponentialBackoff, checkRetryAfter } from './rules/backoff.js';
import { checkCacheWellFormed } from './rules/cache.js';
import { checkNoSpin } from './rules/poll.js';
import { checkPublishNoRetry4xx } from './rules/publish.js';
import { checkAfterDiscontinuity, checkAfterEmpty, checkFirstRequestOnce, checkNextCursor } from './rules/resume.js';

// The client rules, in the order reports list them. `contract` rules quote the contract
// (the Topics HTTP API reference, served as openapi/topics.yaml); `harm` rules are what
// does harm in production (retry storms, spinning, lost messages, a refused credential
// retried), and fail an exam like `contract` ones; `advice` rules fail it only with --strict.
// The two first-request rules judge what a first request lost, counted from the journal.

const CONTRACT = 'Topics HTTP API';
const CACHE_REFERENCE = 'public-dev-docs, "HTTP API reference for Momento Cache"';

export const clientRules: readonly ClientRule[] = [
  {
    id: 'resume.next-cursor',
    level: 'contract',
    title: 'after an answer with items, the next poll asks for last + 1 on the last item’s page',
    sentence:
      'The client advances by setting sequence_number to the last received topic_sequence_number + 1 and sequence_page to the last received page.',
    source: `${CONTRACT}, 4.2 Subscribe, Behavior 4`,
    check: checkNextCursor,
  },
  {
    id: 'resume.after-discontinuity',
    level: 'contract',
    title: 'after a discontinuity, the subscription continues on new_sequence_page from the items that followed it',
    sentence:
      'sequence_page: Use 0 on the first request to learn the current page; then send back the most recent page received.',
    source: `${CONTRACT}, 4.2 Subscribe, query parameters`,
    check: checkAfterDiscontinuity,
  },
  {
    id: 'resume.after-empty',
    level: 'harm',
    title:
      'after {"items":[]}, the subscription polls again with the same cursor: a first request instead loses what is published before it arrives',
    sentence:
      'A first request over HTTP (no sequence_number, or 0, page 0) waits for the next message published: what is published between two first requests is never delivered.',
    source: 'service facts, Subscribe (the provider’s Postman description of Subscribe)',
    check: checkAfterEmpty,
  },
  {
    id: 'resume.first-request-once',
    level: 'harm',
    title:
      'a subscription makes a first request (0/0 or none) once, then follows cursors: a client that polls again without a cursor loses what is published while it is between polls',
    sentence:
      'sequence_number: The next sequence number the client expects, normally last received + 1. Use 0 on the first request.',
    source: `${CONTRACT}, 4.2 Subscribe, query parameters`,
    check: checkFirstRequestOnce,
  },
  {
    id: 'backoff.retry-after',
    level: 'harm',
    title: 'after a 429 or 503 with Retry-After, no request to that topic before it has elapsed',
    sentence:
      'Servers send the Retry-After header field to indicate how long the user agent ought to wait before making a follow-up request.',
    source: 'RFC 9110, 10.2.3 Retry-After',
    check: checkRetryAfter,
  },
  {
    id: 'backoff.exponential',
    level: 'harm',
    title: 'after consecutive 5xx answers or dropped connections, retries slow down (jitter is fine)',
    sentence:
      '500: The service has an internal problem. (A client that retries a failing service at a steady pace prolongs the outage; back off exponentially, with jitter.)',
    source: `${CONTRACT}, 7 Errors; AWS Architecture Blog, "Exponential Backoff And Jitter"`,
    check: checkExponentialBackoff,
  },
  {
    id: 'auth.one-place',
    level: 'contract',
    title: 'the token is never in both the header and the query',
    sentence:
      'The token is sent in exactly one of two places: the Authorization header (value is the token string) or the token query parameter (URL-safe string).',
    source: `${CONTRACT}, 5 Authentication, 3`,
    check: checkOnePlace,
  },
  {
    id: 'auth.raw-token',
    level: 'contract',
    title: 'the Authorization header is the raw token, no Bearer prefix',
    sentence: 'the Authorization header (value is the token string)',
    source: `${CONTRACT}, 5 Authentication, 3; the provider’s curl examples send the raw token`,
    check: checkRawToken,
  },
  {
    id: 'auth.no-retry-unchanged',
    level: 'harm',
    title: 'after a 401 or 403, the same credential is not retried more than once',
    sentence: 'An invalid or expired token gives 401. A token lacking the needed access gives 403.',
    source: `${CONTRACT}, 5 Authentication, 5`,
    check: checkNoRetryUnchanged,
  },
  {
    id: 'publish.no-retry-4xx',
    level: 'advice',
    title: 'a publish answered 400, 404 or 413 is not retried unchanged',
    sentence:
      '400: The request is incorrectly specified (for publish). 404: The cache does not exist. (The 4 KB payload limit is hard.)',
    source: `${CONTRACT}, 7 Errors; service facts, Publish`,
    check: checkPublishNoRetry4xx,
  },
  {
    id: 'poll.no-spin',
    level: 'harm',
    title: 'a subscription does not poll faster than 10 a second when answers come back at once with nothing',
    sentence: 'The request blocks until at least one message or one discontinuity element is available.',
    source: `${CONTRACT}, 4.2 Subscribe, Behavior 1`,
    check: checkNoSpin,
  },
  {
    id: 'cache.well-formed',
    level: 'contract',
    title: 'a cache call names its key with exactly one of key and key_base64; a Set Value gives ttl_seconds',
    sentence:
      'You must specify a key to be accessed in the cache: either the key query parameter or the key_base64 parameter. Set Value: ttl_seconds is required. (400: the request was incorrectly specified.)',
    source: `${CACHE_REFERENCE}: Get Value, Set Value, Delete Value`,
    check: checkCacheWellFormed,
  },
];

export const ruleIds = clientRules.map((r) => r.id);
