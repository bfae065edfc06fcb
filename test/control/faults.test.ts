import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { CACHE, clientOf, itemsOf, numbersOf, publishMany, start, waitForWaiting } from './helpers.js';

// Each fault kind through the control plane (POST /_emulator/faults), as a client sees it.

let emulator: RunningEmulator;
let client: ReturnType<typeof clientOf>;

beforeEach(async () => {
  emulator = await start();
  client = clientOf(emulator);
});
afterEach(() => emulator.close());

async function addFault(rule: Record<string, unknown>): Promise<{ id: string }> {
  const response = await client.control('POST', '/faults', rule);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { id: string };
}

describe('status faults', () => {
  it('the issue example: the next publish to c/t answers 429 with Retry-After: 1, then the topic recovers', async () => {
    const fault = await addFault({
      operation: 'publish',
      cache: CACHE,
      topic: 't',
      status: 429,
      retryAfterSeconds: 1,
      count: 1,
    });
    expect(fault.id).toMatch(/^f\d+$/);
    const refused = await client.publish('t', 'lost');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({ code: 'limit_exceeded', message: expect.any(String) });
    expect((await client.publish('t', 'kept')).status).toBe(204);
    // The refused message was never published; the rule is used up and gone.
    expect(numbersOf(await itemsOf(await client.subscribe('t', { seq: 1 })))).toEqual([1]);
    expect((await client.control('GET', `/faults/${fault.id}`)).status).toBe(404);
  });

  it('lists a rule that ended by itself as ended, with how often it fired and why, until the rules are cleared', async () => {
    const used = await addFault({ operation: 'publish', topic: 'ended', status: 503, count: 2 });
    const removed = await addFault({ operation: 'publish', topic: 'never', status: 500 });
    emulator.setClock({ mode: 'virtual' });
    const timed = await addFault({ operation: 'subscribe', topic: 'ended', status: 500, durationMs: 5000 });
    for (let i = 0; i < 2; i++) expect((await client.publish('ended', `m${i}`)).status).toBe(503);
    emulator.advanceClock(5000);
    expect((await client.control('DELETE', `/faults/${removed.id}`)).status).toBe(200);
    const listed = (await (await client.control('GET', '/faults')).json()) as {
      faults: unknown[];
      ended: { id: string; fired: number; remaining: number | null; endedBecause: string; endedAt: string }[];
    };
    expect(listed.faults).toEqual([]);
    // Newest first; the rule removed on request is not among them.
    expect(listed.ended.map((f) => [f.id, f.fired, f.endedBecause])).toEqual([
      [timed.id, 0, 'its duration of 5000 ms ended'],
      [used.id, 2, 'its count of 2 is used up'],
    ]);
    expect(listed.ended[1]!.remaining).toBe(0);
    expect(emulator.state().endedFaults.map((f) => f.id)).toEqual([timed.id, used.id]);
    expect(((await (await client.control('GET', `/faults/${used.id}`)).json()) as { message: string }).message).toMatch(
      /listed under 'ended'/,
    );
    expect((await client.control('DELETE', '/faults')).status).toBe(200);
    expect(emulator.endedFaults()).toEqual([]);
  });

  it('keeps the newest 100 ended rules, and a reset forgets them', async () => {
    for (let i = 0; i < 105; i++) await addFault({ operation: 'publish', topic: `ended-${i}`, status: 503, count: 1 });
    for (let i = 0; i < 105; i++) await client.publish(`ended-${i}`, 'm');
    const ended = emulator.endedFaults();
    expect(ended).toHaveLength(100);
    expect(ended[0]!.rule.topic).toBe('ended-104');
    emulator.reset();
    expect(emulator.endedFaults()).toEqual([]);
  });

  it.each([
    [400, 'invalid_request'],
    [401, 'invalid_token'],
    [403, 'permission_denied'],
    [404, 'cache_not_found'],
    [429, 'limit_exceeded'],
    [500, 'internal_error'],
    [503, 'service_unavailable'],
  ])('status %i answers the JSON body of %s from the registry', async (status, code) => {
    await addFault({ operation: 'subscribe', status, count: 1 });
    const response = await client.subscribe('t');
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ code, message: expect.any(String) });
  });

  it('a code and message of the same status replace the defaults; 503 carries Retry-After when asked', async () => {
    await addFault({ status: 401, code: 'expired_token', message: 'The auth token has expired.', count: 1 });
    await addFault({ status: 503, retryAfterSeconds: 7, count: 1 });
    const first = await client.publish('t');
    expect(first.status).toBe(401);
    expect(await first.json()).toEqual({ code: 'expired_token', message: 'The auth token has expired.' });
    const second = await client.publish('t');
    expect([second.status, second.headers.get('retry-after')]).toEqual([503, '7']);
  });

  it('matches only its operation, cache, topic prefix and token id', async () => {
    const { token } = await emulator.issueToken({
      permissions: [{ role: 'publishsubscribe', cache: '*' }],
      ttlSeconds: 600,
      tokenId: 'alice',
    });
    await addFault({ operation: 'publish', topicPrefix: 'orders-', tokenId: 'alice', status: 500 });
    expect((await client.publish('orders-1', 'm', { token })).status).toBe(500);
    expect((await client.publish('orders-1')).status).toBe(204); // the API key has no token id
    expect((await client.publish('other', 'm', { token })).status).toBe(204);
    expect((await client.subscribe('orders-1', { seq: 1 }, { token })).status).toBe(200);
  });

  it('skip lets matching requests through first: the 3rd subscribe on t gets 429', async () => {
    await publishMany(emulator, 't', 1);
    await addFault({ operation: 'subscribe', topic: 't', skip: 2, count: 1, status: 429, retryAfterSeconds: 1 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await client.subscribe('t', { seq: 1 })).status);
    expect(statuses).toEqual([200, 200, 429, 200]);
  });

  it('a probability with a seed fires on the same requests every run', async () => {
    const run = async () => {
      await client.control('POST', '/reset');
      await addFault({ operation: 'publish', status: 500, probability: 0.5, seed: 1234 });
      const statuses: number[] = [];
      for (let i = 0; i < 24; i++) statuses.push((await client.publish('t')).status);
      return statuses;
    };
    const first = await run();
    expect(first).toContain(500);
    expect(first).toContain(204);
    expect(await run()).toEqual(first);
  });

  it('without a seed, a probability rule shows the seed it chose', async () => {
    const fault = (await addFault({ status: 500, probability: 0.2 })) as unknown as { rule: { seed?: number } };
    expect(fault.rule.seed).toEqual(expect.any(Number));
  });

  it('lists, gets and deletes rules; used-up and unknown ids answer 404 fault_not_found', async () => {
    const a = await addFault({ status: 500, topic: 'a' });
    const b = await addFault({ status: 500, topic: 'b' });
    const list = (await (await client.control('GET', '/faults')).json()) as { faults: { id: string }[] };
    expect(list.faults.map((f) => f.id)).toEqual([a.id, b.id]);
    const removed = await client.control('DELETE', `/faults/${a.id}`);
    expect(removed.status).toBe(200);
    expect(((await removed.json()) as { id: string }).id).toBe(a.id);
    const missing = await client.control('DELETE', `/faults/${a.id}`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('fault_not_found');
    expect(await (await client.control('DELETE', '/faults')).json()).toEqual({ removed: 1 });
    expect((await client.publish('b')).status).toBe(204);
  });

  it('a rule bound in clock time starts after startAfterMs and ends after durationMs', async () => {
    emulator.setClock({ mode: 'virtual' });
    await addFault({ operation: 'publish', status: 503, startAfterMs: 1000, durationMs: 2000 });
    expect((await client.publish('t')).status).toBe(204);
    emulator.advanceClock(1000);
    expect((await client.publish('t')).status).toBe(503);
    emulator.advanceClock(2000);
    expect((await client.publish('t')).status).toBe(204);
    expect(emulator.faults()).toEqual([]);
  });
});

describe('delays', () => {
  it('a short delay holds the request, then it is handled normally (and logged with why)', async () => {
    const info = vi.spyOn(emulator.context.log, 'info');
    await addFault({ operation: 'publish', delayMs: 20, count: 1 });
    expect((await client.publish('t')).status).toBe(204);
    expect(info.mock.calls.map((c) => String(c[1]))).toContainEqual(
      expect.stringMatching(/fault: publish default-cache\/t delayed 20 ms \(rule f1, firing 1 of 1\)/),
    );
    expect(emulator.state().topics[0]!.lastSequenceNumber).toBe(1);
  });

  it('a delay then a status answers the status after the delay', async () => {
    await addFault({ operation: 'publish', delayMs: 10, status: 500, count: 1 });
    expect((await client.publish('t')).status).toBe(500);
  });

  it('a delayed request is answered 503 by a reset and never reaches the topic', async () => {
    await addFault({ operation: 'publish', delayMs: 60_000 });
    const info = vi.spyOn(emulator.context.log, 'info');
    const pending = client.publish('t');
    await vi.waitFor(
      () => expect(info.mock.calls.map((c) => String(c[1]))).toContainEqual(expect.stringMatching(/delayed 60000 ms/)),
      { timeout: 5000, interval: 2 },
    );
    await client.control('POST', '/reset');
    const answer = await pending;
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { code: string }).code).toBe('service_unavailable');
    expect(emulator.state().topics).toEqual([]);
  });

  it('a client that leaves during a delay leaves nothing behind', async () => {
    await addFault({ operation: 'publish', delayMs: 60_000 });
    const info = vi.spyOn(emulator.context.log, 'info');
    const abort = new AbortController();
    const pending = fetch(`${emulator.url}/topics/${CACHE}/t`, {
      method: 'POST',
      headers: { authorization: emulator.apiKey, 'content-type': 'text/plain' },
      body: 'x',
      signal: abort.signal,
    });
    await vi.waitFor(() => expect(info.mock.calls.length).toBeGreaterThan(0), { timeout: 5000, interval: 2 });
    abort.abort();
    await expect(pending).rejects.toThrow();
    await client.control('DELETE', '/faults');
    expect((await client.publish('t', 'after')).status).toBe(204);
    expect(emulator.state().topics[0]!.lastSequenceNumber).toBe(1);
  });
});

describe('dropped connections', () => {
  it('drop destroys the connection without an answer; the publish did not happen', async () => {
    await addFault({ operation: 'publish', drop: true, count: 1 });
    await expect(client.publish('t', 'lost')).rejects.toThrow();
    expect((await client.publish('t', 'kept')).status).toBe(204);
    expect(numbersOf(await itemsOf(await client.subscribe('t', { seq: 1 })))).toEqual([1]);
  });

  it('drop works on subscribe too', async () => {
    await addFault({ operation: 'subscribe', drop: true, count: 1 });
    await expect(client.subscribe('t')).rejects.toThrow();
  });
});

describe('subscribe: after delivering N items', () => {
  it('lets exactly N items through (cutting the batch that crosses N), then the next poll gets the fault, then the stream goes on', async () => {
    await publishMany(emulator, 't', 5);
    await addFault({ operation: 'subscribe', topic: 't', afterItems: 3, status: 500, count: 1 });
    expect(numbersOf(await itemsOf(await client.subscribe('t', { seq: 1 })))).toEqual([1, 2, 3]);
    expect((await client.subscribe('t', { seq: 4 })).status).toBe(500);
    expect(numbersOf(await itemsOf(await client.subscribe('t', { seq: 4 })))).toEqual([4, 5]);
  });

  it('counts across polls, including a poll that waited for its item', async () => {
    await publishMany(emulator, 't', 1);
    const fault = await addFault({ operation: 'subscribe', topic: 't', afterItems: 2, drop: true });
    expect(numbersOf(await itemsOf(await client.subscribe('t', { seq: 1 })))).toEqual([1]);
    const waiting = client.subscribe('t', { seq: 2 });
    await waitForWaiting(emulator, 1);
    await publishMany(emulator, 't', 1);
    expect(numbersOf(await itemsOf(await waiting))).toEqual([2]);
    expect(emulator.fault(fault.id)).toMatchObject({ armed: true, delivered: 2 });
    await expect(client.subscribe('t', { seq: 3 })).rejects.toThrow();
  });

  it('an answer that arms the rule leaves; another answer leaving after it gets the fault instead', async () => {
    const fault = await addFault({ operation: 'subscribe', topic: 't', afterItems: 1, status: 500, count: 1 });
    const first = client.subscribe('t', { seq: 1 });
    const second = client.subscribe('t', { seq: 1 });
    await waitForWaiting(emulator, 2);
    await publishMany(emulator, 't', 1); // wakes both: the first answer arms the rule
    const answers = await Promise.all([first, second]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 500]);
    const delivered = answers.find((a) => a.status === 200)!;
    expect(numbersOf(await itemsOf(delivered))).toEqual([1]);
    expect(emulator.faults()).toEqual([]);
    expect(emulator.endedFaults()[0]).toMatchObject({ id: fault.id, delivered: 1, fired: 1 });
  });
});

describe('subscribe: while waiting', () => {
  it('a rule added while a long-poll waits answers it with the fault at once', async () => {
    const waiting = client.subscribe('t');
    await waitForWaiting(emulator, 1);
    await addFault({
      operation: 'subscribe',
      topic: 't',
      whileWaiting: true,
      status: 503,
      retryAfterSeconds: 2,
      count: 1,
    });
    const answer = await waiting;
    expect([answer.status, answer.headers.get('retry-after')]).toEqual([503, '2']);
    expect(emulator.state().waitingSubscribers).toEqual([]);
    // The topic is unharmed: the next poll waits and gets the next message.
    const next = client.subscribe('t');
    await waitForWaiting(emulator, 1);
    await publishMany(emulator, 't', 1);
    expect(numbersOf(await itemsOf(await next))).toEqual([1]);
  });

  it('waitedMs: the fault fires once the long-poll has waited that long on the clock', async () => {
    emulator.setClock({ mode: 'virtual' });
    await addFault({ operation: 'subscribe', whileWaiting: true, waitedMs: 5000, status: 500 });
    const waiting = client.subscribe('t');
    await waitForWaiting(emulator, 1);
    emulator.advanceClock(4999);
    expect(emulator.state().waitingSubscribers).toEqual([expect.objectContaining({ waitedMs: 4999 })]);
    emulator.advanceClock(1);
    expect((await waiting).status).toBe(500);
  });

  it('a waiting long-poll can be dropped', async () => {
    await addFault({ operation: 'subscribe', whileWaiting: true, drop: true, count: 1 });
    await expect(client.subscribe('t')).rejects.toThrow();
    expect(emulator.state().waitingSubscribers).toEqual([]);
  });
});

describe('faults are logged with why, never with a token', () => {
  it('logs the rule and the request, with the token id only', async () => {
    const { token } = await emulator.issueToken({
      permissions: [{ role: 'publishsubscribe', cache: '*' }],
      ttlSeconds: 600,
      tokenId: 'bob',
    });
    const info = vi.spyOn(emulator.context.log, 'info');
    await addFault({ operation: 'publish', status: 429, count: 1 });
    expect((await client.publish('t', 'm', { token })).status).toBe(429);
    const line = info.mock.calls.find((c) => String(c[1]).startsWith('fault: publish'));
    expect(line?.[0]).toMatchObject({
      fault: 'f1',
      tokenId: 'bob',
      cache: CACHE,
      topic: 't',
      why: 'rule f1, firing 1 of 1',
    });
    expect(JSON.stringify(info.mock.calls)).not.toContain(token);
    expect(JSON.stringify(info.mock.calls)).not.toContain(emulator.apiKey);
  });
});
