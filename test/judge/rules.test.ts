import { describe, expect, it } from 'vitest';
import { clientRules } from '../../judge/catalogue.js';
import { judgeClients } from '../../judge/judge.js';
import { followSubscriptions } from '../../judge/subscriptions.js';
import { entry, PAGE, poll, publish, violations } from './records.js';
import type { ExchangeFacts } from '../../emulator/exchange.js';

const rule = (id: string) => clientRules.find((r) => r.id === id)!;
const disc = (last: number, next: number, page: number) => ({
  discontinuity: { lastTopicSequence: last, newTopicSequence: next, newSequencePage: page },
});

describe('following subscriptions', () => {
  it('chains polls that follow one another and starts another subscription for a poll in parallel', () => {
    const a1 = poll(0, null, [1, 2]);
    const b1 = poll(50, null, [], { durationMs: 1000 }); // in flight while a continues
    const a2 = poll(101, [3, PAGE], [3]);
    const a3 = poll(202, [4, PAGE]);
    const other = poll(210, null, [], { topic: 'u' });
    const subscriptions = followSubscriptions([a1, b1, a2, a3, other]);
    expect(subscriptions.map((s) => s.polls.map((p) => p.id))).toEqual([[a1.id, a2.id, a3.id], [b1.id], [other.id]]);
  });
});

describe('resume.next-cursor', () => {
  const check = rule('resume.next-cursor');
  it('passes when the next poll asks for last + 1 on the last page, also after a failed poll', () => {
    const a = poll(0, null, [1, 2, 3]);
    const failed = poll(101, [4, PAGE], [], { status: 503 });
    const b = poll(202, [4, PAGE], [4]);
    const c = poll(303, [5, PAGE]);
    expect(violations(check, [a, failed, b, c])).toEqual({ occasions: 3, found: [] });
  });
  it('names the answer and the poll that asked for the same number again, or skipped ahead', () => {
    const a = poll(0, null, [1, 2, 3]);
    const again = poll(101, [3, PAGE], [3]);
    const ahead = poll(202, [5, PAGE]);
    expect(violations(check, [a, again, ahead]).found).toEqual([
      [a.id, again.id],
      [again.id, ahead.id],
    ]);
  });
  it('lets a poll ask again once for what the answer before it answered, not again and again', () => {
    const a = poll(0, [3, PAGE], [3]);
    const retry = poll(101, [3, PAGE], [3]);
    const spin = [poll(202, [3, PAGE], [3]), poll(303, [3, PAGE], [3])];
    expect(violations(check, [a, retry]).found).toEqual([]);
    expect(violations(check, [a, retry, ...spin]).found).toEqual([
      [retry.id, spin[0]!.id],
      [spin[0]!.id, spin[1]!.id],
    ]);
  });
  it('takes a read from the start (1 on page 0) or of a page never received as a new read, as a person with curl does', () => {
    const a = poll(0, null, [4, 5]);
    const fromStart = poll(101, [1, 0], [1, 2, 3, 4, 5]);
    const elsewhere = poll(202, [300, 5435435], [1], disc(299, 1, PAGE));
    const polls = [a, fromStart, elsewhere];
    expect(violations(check, polls).found).toEqual([]);
    expect(followSubscriptions(polls).map((s) => s.polls.length)).toEqual([1, 1, 1]);
  });
});

describe('gRPC streams', () => {
  const check = rule('resume.next-cursor');
  const stream = (at: number, cursor: [number, number], items: number[], more = {}) =>
    poll(at, cursor, items, { protocol: 'grpc', durationMs: 5000, delivered: items.length, ...more });
  it('takes a stream that ended with an error after items as having delivered them: resume at last + 1', () => {
    const broken = stream(0, [1, PAGE], [1, 2, 3], { status: 503, code: 'service_unavailable' });
    expect(violations(check, [broken, stream(5200, [4, PAGE], [4])]).found).toEqual([]);
    const again = stream(5300, [2, PAGE], [2]);
    expect(violations(check, [broken, again]).found).toEqual([[broken.id, again.id]]);
  });
});

describe('resume.after-discontinuity', () => {
  const check = rule('resume.after-discontinuity');
  it('passes when the poll continues on the new page after the items that followed the discontinuity', () => {
    const a = poll(0, [1, PAGE], [1]);
    const d = poll(101, [2, PAGE], [1, 2], { page: 9, ...disc(4, 1, 9) });
    const b = poll(202, [3, 9]);
    expect(violations(check, [a, d, b])).toEqual({ occasions: 1, found: [] });
  });
  it('accepts new_topic_sequence or + 1 after a discontinuity that came alone', () => {
    const d = poll(0, [5, PAGE], [], { page: 9, ...disc(4, 1, 9) });
    const b = poll(101, [2, 9]);
    expect(violations(check, [d, b]).found).toEqual([]);
  });
  it('names the poll that went back to the old page', () => {
    const d = poll(0, [5, PAGE], [1, 2], { page: 9, ...disc(4, 1, 9) });
    const old = poll(101, [3, PAGE]);
    expect(violations(check, [d, old]).found).toEqual([[d.id, old.id]]);
  });
  it('takes the same request sent again for a retry of an answer the client did not get', () => {
    const d = poll(0, [5, PAGE], [1, 2], { page: 9, ...disc(4, 1, 9) });
    expect(violations(check, [d, poll(101, [5, PAGE])]).found).toEqual([]);
  });
});

describe('resume.after-empty', () => {
  const check = rule('resume.after-empty');
  it('passes when the client repeats its cursor after an empty answer (and a first request may repeat itself)', () => {
    const first = poll(0, [0, 0]);
    const again = poll(101, [0, 0], [1]);
    const empty = poll(202, [2, PAGE]);
    const same = poll(303, [2, PAGE]);
    expect(violations(check, [first, again, empty, same])).toEqual({ occasions: 1, found: [] });
  });
  it('names the first request made after an empty answer that lost messages, and how many', () => {
    const a = poll(0, null, [1]);
    const empty = poll(101, [2, PAGE]);
    const lost = poll(202, null, [4]);
    expect(violations(check, [a, empty, lost]).found).toEqual([[empty.id, lost.id]]);
    expect(
      check.check({ client: 'c', requests: [a, empty, lost], subscriptions: followSubscriptions([a, empty, lost]) })
        .violations[0]!.message,
    ).toMatch(/lost 2 messages \(2 to 3\)$/);
    // That poll is this rule's, not resume.first-request-once's.
    expect(violations(rule('resume.first-request-once'), [a, empty, lost]).found).toEqual([]);
  });
  it('passes a first request after an empty answer that lost nothing (nothing was published meanwhile)', () => {
    const a = poll(0, null, [1]);
    const empty = poll(101, [2, PAGE]);
    const lucky = poll(202, null, [2]);
    expect(violations(check, [a, empty, lucky])).toEqual({ occasions: 1, found: [] });
  });
});

describe('resume.first-request-once', () => {
  const check = rule('resume.first-request-once');
  it('passes a subscription that makes one first request', () => {
    expect(violations(check, [poll(0, null, [1]), poll(101, [2, PAGE], [2])]).found).toEqual([]);
  });
  it('names a first request after the subscription had a position that lost messages', () => {
    const a = poll(0, null, [1]);
    const restart = poll(101, [0, 0], [4]);
    expect(violations(check, [a, restart]).found).toEqual([[a.id, restart.id]]);
    expect(violations(rule('resume.next-cursor'), [a, restart]).found).toEqual([]);
  });
  it('passes a client that polls again without a cursor and loses nothing', () => {
    const polls = [poll(0, null, [1]), poll(101, null, [2]), poll(202, null, [3, 4])];
    expect(violations(check, polls)).toEqual({ occasions: 2, found: [] });
  });
});

describe('backoff.retry-after', () => {
  const check = rule('backoff.retry-after');
  const throttled = (at: number) => poll(at, [1, PAGE], [], { status: 429, retryAfterSeconds: 1, durationMs: 1 });
  it('passes a client that waits the Retry-After before its next request to that topic', () => {
    const a = throttled(0);
    expect(violations(check, [a, poll(1000, [1, PAGE], [1])])).toEqual({ occasions: 1, found: [] });
  });
  it('names the request that came before Retry-After had elapsed', () => {
    const a = throttled(0);
    const early = poll(200, [1, PAGE], [1]);
    expect(violations(check, [a, early]).found).toEqual([[a.id, early.id]]);
  });
  it('does not hold a request to another topic against it', () => {
    expect(violations(check, [throttled(0), poll(10, null, [], { topic: 'u' })]).found).toEqual([]);
  });
});

describe('backoff.exponential', () => {
  const check = rule('backoff.exponential');
  const outage = (times: number[]) => times.map((at) => poll(at, [1, PAGE], [], { status: 503, durationMs: 1 }));
  it('passes retries whose gaps grow, even with full jitter', () => {
    const run = outage([0, 80, 300, 500, 1400, 2600]);
    expect(violations(check, [...run, poll(5000, [1, PAGE], [1])])).toEqual({ occasions: 1, found: [] });
  });
  it('passes a steady retry that is slow enough (Retry-After: 1 through an outage)', () => {
    expect(violations(check, outage([0, 1001, 2002, 3003, 4004, 5005])).found).toEqual([]);
  });
  it('names a steady fast retry, and one too fast for any trend', () => {
    const steady = outage([0, 301, 602, 903, 1204, 1505]);
    expect(violations(check, steady).found).toEqual([steady.map((r) => r.id)]);
    const hammer = outage(Array.from({ length: 12 }, (_, i) => i * 20));
    expect(violations(check, hammer).found).toHaveLength(1);
  });
  it('counts dropped connections as failures', () => {
    const drops = [0, 101, 202, 303, 404].map((at) =>
      poll(at, [1, PAGE], [], { status: null, dropped: true, durationMs: 1 }),
    );
    expect(violations(check, drops).found).toHaveLength(1);
  });
});

describe('auth rules', () => {
  it('auth.one-place names the requests with the token in both places', () => {
    const ok = publish(0);
    const both = publish(10, { credentialPlace: 'both', status: 400, code: 'token_in_header_and_query' });
    expect(violations(rule('auth.one-place'), [ok]).found).toEqual([]);
    expect(violations(rule('auth.one-place'), [ok, both]).found).toEqual([[both.id]]);
  });
  it('auth.raw-token names the requests with a Bearer prefix', () => {
    const bearer = publish(0, { bearer: true, status: 401, code: 'invalid_token' });
    expect(violations(rule('auth.raw-token'), [publish(0)]).found).toEqual([]);
    expect(violations(rule('auth.raw-token'), [bearer]).found).toEqual([[bearer.id]]);
    // Its 401s are not held against the client as retries of a refused credential.
    expect(
      violations(rule('auth.no-retry-unchanged'), [bearer, publish(10, bearer), publish(20, bearer)]).found,
    ).toEqual([]);
  });
  it('auth.no-retry-unchanged tolerates one retry of a refused credential, not two', () => {
    const check = rule('auth.no-retry-unchanged');
    const refused = (at: number) => poll(at, [1, PAGE], [], { status: 401, code: 'expired_token' });
    const [a, b, c] = [refused(0), refused(200), refused(400)];
    expect(violations(check, [a, b])).toEqual({ occasions: 1, found: [] });
    expect(violations(check, [a, b, c]).found).toEqual([[a.id, b.id, c.id]]);
  });
});

describe('publish.no-retry-4xx', () => {
  const check = rule('publish.no-retry-4xx');
  const tooLarge = (at: number) => publish(at, { status: 413, code: 'payload_too_large' });
  it('passes a client that sends something else after a refusal', () => {
    expect(violations(check, [tooLarge(0), publish(100)])).toEqual({ occasions: 1, found: [] });
  });
  it('names a publish refused the same way soon after', () => {
    const [a, b] = [tooLarge(0), tooLarge(100)];
    expect(violations(check, [a, b]).found).toEqual([[a.id, b.id]]);
    expect(violations(check, [tooLarge(0), tooLarge(5000)]).found).toEqual([]);
  });
});

describe('cache.well-formed', () => {
  const check = rule('cache.well-formed');
  const call = (operation: string, more: Partial<ExchangeFacts> = {}) =>
    entry({ operation, method: operation === 'cacheSet' ? 'PUT' : 'GET', path: '/cache/c', topic: null, ...more });
  it('passes cache calls answered as they should be, hits and misses alike, and a client that makes none', () => {
    const fine = [call('cacheSet', { status: 204 }), call('cacheGet', { status: 404, code: 'key_not_found' })];
    expect(violations(check, fine)).toEqual({ occasions: 2, found: [] });
    expect(violations(check, [publish(0)])).toEqual({ occasions: 0, found: [] });
  });
  it('names the calls refused 400 invalid_parameter (no ttl_seconds, a key named neither way or both)', () => {
    const [a, b] = [call('cacheSet', { status: 400, code: 'invalid_parameter' }), call('cacheGet', { status: 200 })];
    const c = call('cacheDelete', { status: 400, code: 'invalid_parameter' });
    expect(violations(check, [a, b, c]).found).toEqual([[a.id, c.id]]);
    // Both token places is auth.one-place's.
    expect(violations(check, [call('cacheSet', { status: 400, code: 'token_in_header_and_query' })]).found).toEqual([]);
  });
});

describe('poll.no-spin', () => {
  const check = rule('poll.no-spin');
  const quick = (at: number) => poll(at, [1, PAGE], [], { status: null, clientGone: true, durationMs: 5 });
  it('passes polls that wait on the service, and a client catching up at once', () => {
    const waiting = [0, 101, 202].map((at) =>
      poll(at, [1, PAGE], [], { durationMs: 100, status: null, clientGone: true }),
    );
    expect(violations(check, waiting).found).toEqual([]);
    const catchingUp = Array.from({ length: 30 }, (_, i) => poll(i * 6, [i + 1, PAGE], [i + 1], { durationMs: 5 }));
    expect(violations(check, catchingUp).found).toEqual([]);
  });
  it('names a subscription that re-polls at once after answers with nothing', () => {
    const spin = Array.from({ length: 30 }, (_, i) => quick(i * 6));
    const found = violations(check, spin).found;
    expect(found).toHaveLength(1);
    expect(found[0]![0]).toBe(spin[1]!.id);
  });
});

describe('judging clients', () => {
  it('judges each credential identity apart and skips requests without one', () => {
    const a = poll(0, null, [1]);
    const b = poll(0, null, [1], { client: 'key:#abc' });
    const anonymous = poll(0, null, [], { client: null, status: 401 });
    const control = entry({ plane: 'control', operation: 'reset', client: null });
    const clients = judgeClients([a, b, anonymous, control]);
    expect(clients.map((c) => c.client)).toEqual(['token:a', 'key:#abc']);
    expect(clients[0]!.counters).toMatchObject({ requests: 1, polls: 1, itemsReceived: 1 });
    expect(clients[0]!.rules.map((r) => r.rule)).toEqual(clientRules.map((r) => r.id));
  });
  it('gives every rule an id, a level and a sentence', () => {
    for (const r of clientRules) {
      expect(r.id).toMatch(/^[a-z]+\.[a-z0-9-]+$/);
      expect(['contract', 'harm', 'advice']).toContain(r.level);
      expect(r.sentence.length).toBeGreaterThan(20);
    }
  });
});
