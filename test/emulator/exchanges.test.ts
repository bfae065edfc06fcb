import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeFacts } from '../../emulator/exchange.js';
import type { RunningEmulator } from '../../emulator/index.js';
import { CACHE, clientOf, publishMany, start, waitForWaiting } from '../control/helpers.js';

// The facts of each answered request, emitted on the event stream once its response has left
// or its client has gone: what the request journal and the client judge are built on.

let emulator: RunningEmulator;
let client: ReturnType<typeof clientOf>;
let seen: ExchangeFacts[];

beforeEach(async () => {
  emulator = await start();
  client = clientOf(emulator);
  seen = [];
  emulator.context.events.on((event) => {
    if (event.kind === 'request') seen.push(event.record);
  });
});
afterEach(() => emulator.close());

/** Waits for the record of the n-th request (1-based) the listener has seen, or fails. */
async function record(n: number): Promise<ExchangeFacts> {
  await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(n), { timeout: 5000, interval: 2 });
  return seen[n - 1]!;
}

describe('exchange facts on the event stream', () => {
  it('a publish: route, topic, who called and how, its status', async () => {
    expect((await client.publish('t', 'hello')).status).toBe(204);
    const facts = await record(1);
    expect(facts).toMatchObject({
      plane: 'service',
      operation: 'publish',
      method: 'POST',
      path: `/topics/${CACHE}/t`,
      cache: CACHE,
      topic: 't',
      cursor: null,
      client: expect.stringMatching(/^key:#[0-9a-f]{12}$/),
      credentialPlace: 'header',
      bearer: false,
      status: 204,
      code: null,
      decidedBy: null,
      dropped: false,
      clientGone: false,
    });
    expect(facts.durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(facts)).not.toContain(emulator.apiKey);
  });

  it("numbers each connection from 1, in this emulator's order, and keeps its number for its next requests", async () => {
    const { Agent } = await import('undici');
    const agents = [new Agent({ connections: 1 }), new Agent({ connections: 1 })];
    try {
      const post = (agent: (typeof agents)[number]) =>
        fetch(`${emulator.url}/topics/${CACHE}/t`, {
          method: 'POST',
          headers: { authorization: emulator.apiKey, 'content-type': 'text/plain' },
          body: 'm',
          dispatcher: agent,
        } as RequestInit);
      for (const agent of [agents[0]!, agents[1]!, agents[0]!]) expect((await post(agent)).status).toBe(204);
      const ids = [(await record(1)).connectionId, (await record(2)).connectionId, (await record(3)).connectionId];
      expect(ids).toEqual([1, 2, 1]);
    } finally {
      await Promise.all(agents.map((agent) => agent.close()));
    }
  });

  it('a subscribe with items: its cursor, the numbers delivered and their page', async () => {
    await publishMany(emulator, 't', 3);
    const response = await client.subscribe('t', { seq: 2 });
    expect(response.status).toBe(200);
    const page = ((await response.json()) as { items: { item: { sequence_page: number } }[] }).items[0]!.item
      .sequence_page;
    const facts = await record(4);
    expect(facts).toMatchObject({
      operation: 'subscribe',
      cursor: { sequenceNumber: 2, sequencePage: 0 },
      items: [2, 3],
      page,
      discontinuity: null,
      status: 200,
      waitedMs: 0,
    });
  });

  it('a subscribe answered with a discontinuity, and one that waited for its item', async () => {
    await publishMany(emulator, 't', 1);
    const page = emulator.state().topics[0]!.page;
    expect((await client.subscribe('t', { seq: 5, page: page - 1 })).status).toBe(200);
    expect(await record(2)).toMatchObject({
      items: [1],
      page,
      discontinuity: { lastTopicSequence: 4, newTopicSequence: 1, newSequencePage: page },
    });
    emulator.setClock({ mode: 'virtual' });
    const waiting = client.subscribe('t', { seq: 2, page });
    await waitForWaiting(emulator, 1);
    emulator.advanceClock(250);
    await publishMany(emulator, 't', 1);
    expect((await waiting).status).toBe(200);
    // Records leave in the order responses close: the publish's 204 and the waiting answer may cross.
    await record(4);
    expect(seen.find((f) => f.operation === 'subscribe' && f.items[0] === 2)).toMatchObject({
      cursor: { sequenceNumber: 2, sequencePage: page },
      items: [2],
      discontinuity: null,
      waitedMs: 250,
      status: 200,
    });
  });

  it('a 429 a fault rule decided: the rule, the code and Retry-After', async () => {
    const added = await client.control('POST', '/faults', {
      operation: 'publish',
      status: 429,
      retryAfterSeconds: 3,
      count: 1,
    });
    expect(added.status).toBe(201);
    expect((await client.publish('t')).status).toBe(429);
    expect(await record(1)).toMatchObject({ plane: 'control', operation: 'addFault', status: 201 });
    expect(await record(2)).toMatchObject({
      operation: 'publish',
      status: 429,
      code: 'limit_exceeded',
      retryAfterSeconds: 3,
      decidedBy: { kind: 'fault', ruleId: 'f1' },
    });
  });

  it('a connection a fault dropped: no status, dropped', async () => {
    await client.control('POST', '/faults', { operation: 'publish', drop: true, count: 1 });
    await expect(client.publish('t')).rejects.toThrow();
    expect(await record(2)).toMatchObject({
      operation: 'publish',
      status: null,
      dropped: true,
      clientGone: false,
      decidedBy: { kind: 'fault', ruleId: 'f1' },
    });
  });

  it('a client that goes away while its subscribe waits: no status, clientGone', async () => {
    const abort = new AbortController();
    const pending = client.subscribe('t', {}, { signal: abort.signal });
    await waitForWaiting(emulator, 1);
    abort.abort();
    await expect(pending).rejects.toThrow();
    expect(await record(1)).toMatchObject({
      operation: 'subscribe',
      status: null,
      dropped: false,
      clientGone: true,
    });
    expect(emulator.context.waiting.size).toBe(0);
  });

  it('a client that goes away while a fault delays it: clientGone, not dropped', async () => {
    await client.control('POST', '/faults', { operation: 'publish', delayMs: 60_000 });
    const abort = new AbortController();
    const pending = client.publish('t', 'x', { signal: abort.signal });
    await vi.waitFor(() => expect(emulator.context.faults.delays.size).toBe(1), { timeout: 5000, interval: 2 });
    abort.abort();
    await expect(pending).rejects.toThrow();
    expect(await record(2)).toMatchObject({
      operation: 'publish',
      status: null,
      dropped: false,
      clientGone: true,
      decidedBy: { kind: 'fault', ruleId: 'f1' },
    });
  });

  it('a subscribe has its cursor as sent even when refused before its handler; none sent is null', async () => {
    await client.control('POST', '/faults', { operation: 'subscribe', status: 503, count: 1 });
    expect((await client.subscribe('t', { seq: 7, page: 3 })).status).toBe(503);
    const first = await fetch(`${emulator.url}/topics/${CACHE}/t`, {
      headers: { authorization: emulator.apiKey },
      signal: AbortSignal.timeout(200),
    }).catch(() => undefined);
    expect(first).toBeUndefined(); // a first request waits for the next message
    expect(await record(2)).toMatchObject({ status: 503, cursor: { sequenceNumber: 7, sequencePage: 3 } });
    expect(await record(3)).toMatchObject({ operation: 'subscribe', cursor: null, clientGone: true });
  });

  it('a refused credential is still named: a token by the id it claims, a key by its digest, never itself', async () => {
    const { token } = await emulator.issueToken({
      permissions: [{ role: 'publishsubscribe', cache: '*' }],
      ttlSeconds: 60,
      tokenId: 'reader',
    });
    expect((await client.publish('t', 'x', { token })).status).toBe(204);
    emulator.expireToken('reader');
    expect((await client.publish('t', 'x', { token })).status).toBe(401);
    expect((await client.publish('t', 'x', { token: 'not-a-key-123' })).status).toBe(401);
    expect((await client.publish('t', 'x', { token: `Bearer ${emulator.apiKey}` })).status).toBe(401);
    expect((await client.publish('t')).status).toBe(204);
    expect(await record(1)).toMatchObject({ status: 204, client: 'token:reader' });
    expect(await record(2)).toMatchObject({ status: 401, code: 'expired_token', client: 'token:reader' });
    expect(await record(3)).toMatchObject({ status: 401, client: expect.stringMatching(/^key:#[0-9a-f]{12}$/) });
    const bearer = await record(4);
    expect(bearer).toMatchObject({ status: 401, bearer: true });
    expect(bearer.client).toBe((await record(5)).client); // the same key, with or without the prefix
    expect(JSON.stringify(seen)).not.toContain(token);
    expect(JSON.stringify(seen)).not.toContain(emulator.apiKey);
  });

  it("a request refused before its route's own steps is named all the same: a refused Origin, a missing admin key", async () => {
    const refused = await fetch(`${emulator.url}/topics/${CACHE}/t?sequence_number=4&sequence_page=2`, {
      headers: { authorization: emulator.apiKey, origin: 'https://evil.example' },
    });
    expect(refused.status).toBe(403);
    expect(await record(1)).toMatchObject({
      operation: 'subscribe',
      cursor: { sequenceNumber: 4, sequencePage: 2 },
      status: 403,
      code: 'origin_not_allowed',
    });
    const guarded = await start({ adminKey: 'exchanges-admin-key' });
    try {
      const records: ExchangeFacts[] = [];
      guarded.context.events.on((event) => {
        if (event.kind === 'request') records.push(event.record);
      });
      expect((await clientOf(guarded).control('GET', '/state')).status).toBe(401);
      await vi.waitFor(() => expect(records.length).toBe(1), { timeout: 5000, interval: 2 });
      expect(records[0]).toMatchObject({ plane: 'control', operation: 'getState', status: 401 });
    } finally {
      await guarded.close();
    }
  });

  it('404 and 405 have no operation; the query token is placed but never recorded', async () => {
    const token = emulator.apiKey;
    expect((await fetch(`${emulator.url}/nowhere?token=${token}`)).status).toBe(404);
    expect((await fetch(`${emulator.url}/topics/${CACHE}/t`, { method: 'PUT' })).status).toBe(405);
    expect(await record(1)).toMatchObject({
      operation: null,
      path: '/nowhere',
      status: 404,
      code: 'route_not_found',
      credentialPlace: 'query',
    });
    expect(await record(2)).toMatchObject({ operation: null, status: 405, code: 'method_not_allowed' });
    expect(JSON.stringify(seen)).not.toContain(token);
  });

  it('nothing is gathered while nobody listens: a request that arrived before the listener is not recorded', async () => {
    // With the control plane on, its metrics listen from the start, and the journal is a listener: off, nobody does.
    const quiet = await start({ controlPlane: false, journalSize: 0 });
    try {
      const records: ExchangeFacts[] = [];
      const before = clientOf(quiet).subscribe('t');
      await waitForWaiting(quiet, 1);
      expect(quiet.context.events.active).toBe(false);
      quiet.context.events.on((event) => {
        if (event.kind === 'request') records.push(event.record);
      });
      expect((await clientOf(quiet).publish('t')).status).toBe(204);
      expect((await before).status).toBe(200);
      await vi.waitFor(() => expect(records.length).toBeGreaterThanOrEqual(1), { timeout: 5000, interval: 2 });
      expect(records.map((r) => r.operation)).toEqual(['publish']);
    } finally {
      await quiet.close();
    }
  });
});
