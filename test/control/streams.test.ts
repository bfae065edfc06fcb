import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { CACHE, clientOf, itemsOf, numbersOf, publishMany, start, waitForWaiting } from './helpers.js';

// The interplay of the control plane with live streams: page changes while subscribers wait,
// resuming across a page change, tokens expiring between polls, the clock and long-polls, and
// a reset while long-polls wait. Everything through HTTP, as a client under test sees it.

let emulator: RunningEmulator;
let client: ReturnType<typeof clientOf>;

beforeEach(async () => {
  emulator = await start({ longPollTimeoutMs: 30_000 });
  client = clientOf(emulator);
});
afterEach(() => emulator.close());

async function resetTopic(topic: string, body?: unknown) {
  const response = await client.control('POST', `/topics/${CACHE}/${topic}/reset`, body);
  return { status: response.status, body: (await response.json()) as { page: number; previousPage?: number } };
}

describe('page changes', () => {
  it('answers every waiting subscriber with a discontinuity to the new, greater page and its first item (and logs why)', async () => {
    await publishMany(emulator, 't', 2);
    const page = emulator.state().topics[0]!.page;
    const info = vi.spyOn(emulator.context.log, 'info');
    const waiting = [client.subscribe('t', { seq: 3, page }), client.subscribe('t', { seq: 3, page })];
    await waitForWaiting(emulator, 2);
    const reset = await resetTopic('t');
    expect(reset.status).toBe(200);
    expect(reset.body.previousPage).toBe(page);
    expect(reset.body.page).toBeGreaterThan(page);
    expect(emulator.state().waitingSubscribers).toHaveLength(2); // they wait for the new page's first message
    await publishMany(emulator, 't', 1);
    for (const answer of await Promise.all(waiting)) {
      const { items } = await itemsOf(answer);
      expect(items[0]).toEqual({
        discontinuity: { last_topic_sequence: 2, new_topic_sequence: 1, new_sequence_page: reset.body.page },
      });
      expect(items.slice(1)).toEqual([
        { item: expect.objectContaining({ sequence_page: reset.body.page, topic_sequence_number: 1 }) },
      ]);
    }
    const logged = expect.stringMatching(
      /page change: default-cache\/t .*\(control plane\); 2 waiting subscriber\(s\) get a discontinuity with the new page's first message/,
    );
    expect(info.mock.calls.map((c) => String(c[1]))).toContainEqual(logged);
  });

  it('resume across a page change: a discontinuity with the new page, then items numbered from 1', async () => {
    await publishMany(emulator, 't', 2);
    const first = await itemsOf(await client.subscribe('t', { seq: 1 }));
    expect(numbersOf(first)).toEqual([1, 2]);
    const oldPage = emulator.state().topics[0]!.page;
    const { body } = await resetTopic('t');
    await publishMany(emulator, 't', 2);
    const resumed = await itemsOf(await client.subscribe('t', { seq: 3, page: oldPage }));
    expect(resumed.items[0]).toEqual({
      discontinuity: { last_topic_sequence: 2, new_topic_sequence: 1, new_sequence_page: body.page },
    });
    expect(numbersOf(resumed)).toEqual([`d1@${body.page}`, 1, 2]);
    expect(resumed.items.slice(1).every((e) => 'item' in e && e.item.sequence_page === body.page)).toBe(true);
  });

  it('scheduled after the message numbered K: K is delivered on the old page, the next poll sees the new page', async () => {
    const scheduled = await resetTopic('t', { afterSequenceNumber: 3 });
    expect(scheduled.status).toBe(202);
    const oldPage = scheduled.body.page;
    expect(emulator.state().scheduled.topicResets).toEqual([
      { cache: CACHE, topic: 't', page: oldPage, afterSequenceNumber: 3 },
    ]);
    await publishMany(emulator, 't', 3);
    const state = emulator.state();
    expect(state.topics[0]).toMatchObject({ nextSequenceNumber: 1, retainedCount: 0 });
    expect(state.topics[0]!.page).toBeGreaterThan(oldPage);
    expect(state.scheduled.topicResets).toEqual([]);
    const pending = client.subscribe('t', { seq: 4, page: oldPage });
    await waitForWaiting(emulator, 1);
    await publishMany(emulator, 't', 1);
    const answer = await itemsOf(await pending);
    expect(answer.items[0]).toEqual({
      discontinuity: { last_topic_sequence: 3, new_topic_sequence: 1, new_sequence_page: state.topics[0]!.page },
    });
    expect(numbersOf(answer)).toEqual([`d1@${state.topics[0]!.page}`, 1]);
  });

  it('scheduled after some clock time', async () => {
    emulator.setClock({ mode: 'virtual' });
    const scheduled = await resetTopic('t', { afterMs: 5000 });
    expect(scheduled.status).toBe(202);
    emulator.advanceClock(4999);
    expect(emulator.state().topics[0]!.page).toBe(scheduled.body.page);
    emulator.advanceClock(1);
    expect(emulator.state().topics[0]!.page).toBeGreaterThan(scheduled.body.page);
  });

  it('an unknown cache answers 404 cache_not_found; both schedules at once is a 400', async () => {
    const missing = await client.control('POST', '/topics/nope/t/reset');
    expect([missing.status, ((await missing.json()) as { code: string }).code]).toEqual([404, 'cache_not_found']);
    const both = await client.control('POST', `/topics/${CACHE}/t/reset`, { afterMs: 1, afterSequenceNumber: 1 });
    expect(both.status).toBe(400);
    expect(await both.json()).toEqual({
      code: 'invalid_body',
      message: 'The request body is invalid: body: set afterSequenceNumber or afterMs, not both.',
    });
  });
});

describe('tokens', () => {
  async function issue(body: unknown) {
    const response = await client.control('POST', '/tokens', body);
    expect(response.status).toBe(201);
    return (await response.json()) as { token: string; expiresAt: string; tokenId?: string };
  }

  it('issues a portable token with the given permissions that expires on the clock', async () => {
    emulator.setClock({ setTo: '2030-01-01T00:00:00Z' });
    const issued = await issue({
      permissions: [{ role: 'subscribeonly', cache: CACHE, topicPrefix: 'read-' }],
      ttlSeconds: 60,
      tokenId: 'reader',
    });
    expect(issued.expiresAt).toBe('2030-01-01T00:01:00.000Z');
    expect(JSON.parse(Buffer.from(issued.token, 'base64').toString('utf8'))).toEqual({
      api_key: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      endpoint: expect.any(String),
    });
    await publishMany(emulator, 'read-1', 1);
    expect(numbersOf(await itemsOf(await client.subscribe('read-1', { seq: 1 }, { token: issued.token })))).toEqual([
      1,
    ]);
    expect((await client.subscribe('write-1', { seq: 1 }, { token: issued.token })).status).toBe(403);
    expect((await client.publish('read-1', 'm', { token: issued.token })).status).toBe(403);
  });

  it('a token that expires between two polls: the next poll gets 401 expired_token', async () => {
    emulator.setClock({ mode: 'virtual' });
    const { token } = await issue({ permissions: [{ role: 'publishsubscribe', cache: '*' }], ttlSeconds: 60 });
    await publishMany(emulator, 't', 2);
    expect(numbersOf(await itemsOf(await client.subscribe('t', { seq: 1 }, { token })))).toEqual([1, 2]);
    emulator.advanceClock(60_000);
    const next = await client.subscribe('t', { seq: 3 }, { token });
    expect(next.status).toBe(401);
    expect(((await next.json()) as { code: string }).code).toBe('expired_token');
  });

  it('expire and revoke by token id, now or scheduled on the clock', async () => {
    emulator.setClock({ mode: 'virtual' });
    const a = await issue({ permissions: [{ role: 'publishsubscribe', cache: '*' }], tokenId: 'a' });
    const b = await issue({ permissions: [{ role: 'publishsubscribe', cache: '*' }], tokenId: 'b' });
    const expired = await client.control('POST', '/tokens/a/expire');
    expect(await expired.json()).toMatchObject({ tokenId: 'a', how: 'expired', scheduled: false });
    expect(((await (await client.publish('t', 'm', { token: a.token })).json()) as { code: string }).code).toBe(
      'expired_token',
    );
    const scheduled = await client.control('POST', '/tokens/b/revoke', { afterMs: 30_000 });
    expect(await scheduled.json()).toMatchObject({ tokenId: 'b', how: 'revoked', scheduled: true });
    expect((await client.publish('t', 'm', { token: b.token })).status).toBe(204);
    emulator.advanceClock(30_000);
    const revoked = await client.publish('t', 'm', { token: b.token });
    expect([revoked.status, ((await revoked.json()) as { code: string }).code]).toEqual([401, 'invalid_token']);
  });

  it('refuses bad token requests with a 400 that names the problem', async () => {
    for (const [body, message] of [
      [{ permissions: [] }, /permissions must NOT have fewer than 1 items/],
      [{ permissions: [{ role: 'admin', cache: '*' }] }, /permissions.0.role must be one of/],
      [{ permissions: [{ role: 'subscribeonly', cache: '*' }], ttlSeconds: 90_001 }, /25 hours/],
      [
        { permissions: [{ role: 'subscribeonly', cache: '*' }], tokenId: 'x'.repeat(65) },
        /tokenId must NOT have more than 64 characters/,
      ],
    ] as const) {
      const response = await client.control('POST', '/tokens', body);
      expect(response.status).toBe(400);
      const error = (await response.json()) as { code: string; message: string };
      expect(error.code).toBe('invalid_body');
      expect(error.message).toMatch(message);
    }
  });
});

describe('the clock', () => {
  it('advancing past a waiting long-poll timeout answers it at once with empty items', async () => {
    const set = await client.control('POST', '/clock', { mode: 'virtual' });
    expect(((await set.json()) as { mode: string }).mode).toBe('virtual');
    const waiting = client.subscribe('t');
    await waitForWaiting(emulator, 1);
    await client.control('POST', '/clock', { advanceMs: 29_999 });
    expect(emulator.state().waitingSubscribers).toHaveLength(1);
    await client.control('POST', '/clock', { advanceMs: 1 });
    expect(await itemsOf(await waiting)).toEqual({ items: [] });
  });

  it('sets, reads and returns to real time', async () => {
    const set = (await (await client.control('POST', '/clock', { setTo: '2031-05-06T07:08:09.000Z' })).json()) as {
      mode: string;
      now: string;
    };
    expect(set).toMatchObject({ mode: 'virtual', now: '2031-05-06T07:08:09.000Z' });
    const read = (await (await client.control('GET', '/clock')).json()) as { now: string };
    expect(read.now).toBe('2031-05-06T07:08:09.000Z');
    const real = (await (await client.control('POST', '/clock', { mode: 'real' })).json()) as {
      mode: string;
      nowMs: number;
    };
    expect(real.mode).toBe('real');
    expect(Math.abs(real.nowMs - Date.now())).toBeLessThan(60_000);
  });

  it('the state shows how long each subscriber has waited, since when, with its cursor and client', async () => {
    emulator.setClock({ mode: 'virtual' });
    await publishMany(emulator, 't', 1);
    const page = emulator.state().topics[0]!.page;
    const since = emulator.state().clock.now;
    const waiting = client.subscribe('t', { seq: 2, page });
    await waitForWaiting(emulator, 1);
    emulator.advanceClock(1500);
    expect(emulator.state().waitingSubscribers).toEqual([
      {
        cache: CACHE,
        topic: 't',
        sequenceNumber: 2,
        sequencePage: page,
        waitedMs: 1500,
        since,
        // The API key's identity, as request events name it: a digest, never the key.
        client: expect.stringMatching(/^key:#[0-9a-f]{12}$/),
      },
    ]);
    expect(JSON.stringify(emulator.state())).not.toContain(emulator.apiKey);
    const state = (await (await client.control('GET', '/state')).json()) as Record<string, unknown>;
    expect(state).toMatchObject({
      caches: [CACHE],
      topics: [
        {
          cache: CACHE,
          topic: 't',
          page,
          firstSequenceNumber: 1,
          lastSequenceNumber: 1,
          retainedCount: 1,
          nextSequenceNumber: 2,
          waitingSubscribers: 1,
        },
      ],
      waitingSubscribers: [{ waitedMs: 1500 }],
      faults: [],
      clock: { mode: 'virtual' },
    });
    const { token } = await emulator.issueToken({
      permissions: [{ role: 'subscribeonly', cache: '*' }],
      ttlSeconds: 600,
      tokenId: 'reader-1',
    });
    const withToken = client.subscribe('t', { seq: 2, page }, { token });
    await waitForWaiting(emulator, 2);
    expect(emulator.state().waitingSubscribers.map((w) => w.client)).toContain('token:reader-1');
    await publishMany(emulator, 't', 1);
    expect(numbersOf(await itemsOf(await waiting))).toEqual([2]);
    expect(numbersOf(await itemsOf(await withToken))).toEqual([2]);
  });
});

describe('reset', () => {
  it('answers waiting long-polls with empty items; their next poll sees a discontinuity to a greater page', async () => {
    await publishMany(emulator, 't', 3);
    const oldPage = emulator.state().topics[0]!.page;
    const waiting = [client.subscribe('t', { seq: 4, page: oldPage }), client.subscribe('u')];
    await waitForWaiting(emulator, 2);
    const reset = (await (await client.control('POST', '/reset')).json()) as { answeredSubscribers: number };
    expect(reset.answeredSubscribers).toBe(2);
    for (const answer of await Promise.all(waiting)) expect(await itemsOf(answer)).toEqual({ items: [] });
    const pending = client.subscribe('t', { seq: 4, page: oldPage });
    await waitForWaiting(emulator, 1);
    await publishMany(emulator, 't', 1);
    const next = await itemsOf(await pending);
    expect(next.items).toHaveLength(2);
    const discontinuity = (
      next.items[0] as { discontinuity: { new_sequence_page: number; new_topic_sequence: number } }
    ).discontinuity;
    expect(discontinuity.new_sequence_page).toBeGreaterThan(oldPage);
    expect(discontinuity.new_topic_sequence).toBe(1);
  });

  it('is complete: topics, pages, token withdrawals, faults, chaos, schedules, limits counters and the clock', async () => {
    const clean = emulator.state();
    // Dirty everything.
    const { token } = await emulator.issueToken({
      permissions: [{ role: 'publishsubscribe', cache: '*' }],
      tokenId: 'gone',
    });
    emulator.setLimits({ enabled: true, operationsPerSecond: 1000 });
    await publishMany(emulator, 't', 3);
    const oldPage = emulator.state().topics[0]!.page;
    emulator.setClock({ setTo: '2040-01-01T00:00:00Z' });
    emulator.addFault({ operation: 'publish', topic: 'x', status: 500 });
    emulator.startChaos({ seed: 1, rate: 0.5, topic: 'x' });
    emulator.resetTopic(CACHE, 't', { afterSequenceNumber: 10 });
    emulator.expireToken('gone');
    emulator.revokeToken('other', { afterMs: 1000 });
    const waiting = client.subscribe('w');
    await waitForWaiting(emulator, 1);

    emulator.reset();
    await waiting;
    const after = emulator.state();
    expect({ ...after, clock: undefined, limits: undefined }).toEqual({
      ...clean,
      clock: undefined,
      limits: undefined,
    });
    expect(after.clock.mode).toBe('real');
    expect(after.clock.pendingTimers).toBe(0);
    expect(after.limits).toMatchObject({ enabled: false, usage: { operations: 0, subscriptions: 0 } });
    // Pages go forward; the withdrawn token works again; fault ids start over.
    await publishMany(emulator, 't', 1);
    expect(emulator.state().topics[0]!.page).toBeGreaterThan(oldPage);
    expect((await client.publish('t', 'm', { token })).status).toBe(204);
    expect(emulator.addFault({ status: 500, topic: 'y' }).id).toBe('f1');
  });

  it('restores what the configuration set: the limits profile', async () => {
    const configured = await start({ limits: 'account', limitOperationsPerSecond: 3 });
    try {
      configured.setLimits({ enabled: false });
      configured.reset();
      expect(configured.limits()).toMatchObject({ enabled: true, operationsPerSecond: 3 });
    } finally {
      await configured.close();
    }
  });
});
