import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EmulatorEvents } from '../../emulator/events.js';
import type { ExchangeFacts } from '../../emulator/exchange.js';
import type { RunningEmulator } from '../../emulator/index.js';
import { RequestJournal } from '../../emulator/journal/journal.js';
import { CACHE, clientOf, start } from '../control/helpers.js';
import { facts as recordFacts } from '../judge/records.js';

const facts = (overrides: Partial<ExchangeFacts> = {}) =>
  recordFacts({ operation: 'publish', method: 'POST', at: 1_000, status: 204, ...overrides });

describe('the journal ring', () => {
  it('keeps the newest entries, numbers them, lists newest first and counts what it evicted', () => {
    const events = new EmulatorEvents();
    const journal = new RequestJournal(events, 3);
    for (let i = 1; i <= 5; i++) events.emit({ kind: 'request', at: i, record: facts({ at: i, topic: `t${i}` }) });
    const page = journal.list();
    expect(page.entries.map((e) => e.id)).toEqual([5, 4, 3]);
    expect(page).toMatchObject({ journalled: 3, evicted: 2, capacity: 3 });
    expect(journal.entries().map((e) => e.topic)).toEqual(['t3', 't4', 't5']);
    expect(journal.count({ topic: 't4' })).toBe(1);
    expect(journal.count({ topic: 't1' })).toBe(0);
    expect(journal.list({}, 2).entries.map((e) => e.id)).toEqual([5, 4]);
    expect(journal.list({ afterId: 4 }).entries.map((e) => e.id)).toEqual([5]);
    journal.clear();
    expect(journal.list()).toMatchObject({ entries: [], journalled: 0, evicted: 0 });
    events.emit({ kind: 'request', at: 6, record: facts() });
    expect(journal.list().entries.map((e) => e.id)).toEqual([6]);
  });

  it('keeps each entry its own path, cache and topic when they repeat, alternate and come back after a reset', () => {
    const events = new EmulatorEvents();
    const journal = new RequestJournal(events, 10);
    // Fresh strings every time, as a request's URL gives them: the pools compare the last value first.
    const record = (topic: string, cache = 'c') =>
      events.emit({
        kind: 'request',
        at: 1,
        record: facts({ cache: [...cache].join(''), topic: [...topic].join(''), path: `/topics/${cache}/${topic}` }),
      });
    for (const topic of ['a', 'a', 'b', 'a', 'b', 'b']) record(topic);
    record('a', 'd');
    expect(journal.entries().map((e) => [e.cache, e.topic, e.path])).toEqual([
      ['c', 'a', '/topics/c/a'],
      ['c', 'a', '/topics/c/a'],
      ['c', 'b', '/topics/c/b'],
      ['c', 'a', '/topics/c/a'],
      ['c', 'b', '/topics/c/b'],
      ['c', 'b', '/topics/c/b'],
      ['d', 'a', '/topics/d/a'],
    ]);
    journal.clear();
    record('b');
    record('a');
    expect(journal.entries().map((e) => e.topic)).toEqual(['b', 'a']);
  });

  it('does not journal what only observes the emulator, and records nothing at size 0', () => {
    const events = new EmulatorEvents();
    const journal = new RequestJournal(events, 10);
    const observers = [
      'listRequests',
      'countRequests',
      'listClients',
      'health',
      'getState',
      'getMetrics',
      'getSnapshot',
    ];
    for (const operation of [...observers, 'streamEvents', 'listTopicMessages', 'reset', 'setClock'])
      events.emit({ kind: 'request', at: 1, record: facts({ plane: 'control', operation }) });
    for (const path of ['/_emulator/ui', '/_emulator/ui/dashboard.js', '/_emulator/nowhere'])
      events.emit({ kind: 'request', at: 1, record: facts({ plane: 'control', operation: null, path }) });
    expect(journal.entries().map((e) => e.operation ?? e.path)).toEqual(['reset', 'setClock', '/_emulator/nowhere']);
    const off = new RequestJournal(new EmulatorEvents(), 0);
    off.record(facts());
    expect(off.entries()).toEqual([]);
  });

  it('matches like a WireMock verification: every member given must match', () => {
    const events = new EmulatorEvents();
    const journal = new RequestJournal(events, 10);
    events.emit({ kind: 'request', at: 10, record: facts({ at: 10, status: 429, retryAfterSeconds: 1 }) });
    events.emit({ kind: 'request', at: 20, record: facts({ at: 20, status: null, dropped: true }) });
    events.emit({
      kind: 'request',
      at: 30,
      record: facts({ operation: 'subscribe', method: 'GET', at: 30, cursor: { sequenceNumber: 3, sequencePage: 7 } }),
    });
    expect(journal.count({ status: [429, null] })).toBe(2);
    expect(journal.count({ status: null })).toBe(1);
    expect(journal.count({ method: 'get', cursor: { sequenceNumber: 3, sequencePage: 7 } })).toBe(1);
    expect(journal.count({ cursor: null })).toBe(2);
    expect(journal.count({ since: 20, until: 30 })).toBe(1);
    expect(journal.count({ since: new Date(25).toISOString() })).toBe(1);
    expect(journal.count({ topicPrefix: 't', client: 'token:b' })).toBe(0);
    // failed: errors and requests with no answer; false for the rest.
    expect(journal.count({ failed: true })).toBe(2);
    expect(journal.count({ failed: false })).toBe(1);
  });
});

describe('the journal of a running emulator', () => {
  let emulator: RunningEmulator;
  let client: ReturnType<typeof clientOf>;
  beforeAll(async () => {
    emulator = await start();
    client = clientOf(emulator);
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.reset());

  /** Resolves once `n` request records have been emitted (they are emitted as the connection's answer closes). */
  function journalled(n: number): Promise<void> {
    return new Promise((resolve, reject) => {
      let seen = 0;
      const timer = setTimeout(() => reject(new Error(`only ${seen} of ${n} requests journalled`)), 5000);
      const off = emulator.context.events.on((event) => {
        if (event.kind === 'request' && ++seen === n) {
          clearTimeout(timer);
          off();
          resolve();
        }
      });
    });
  }

  it('refuses a matcher naming an operation no document has, instead of counting nothing', async () => {
    const count = await client.control('POST', '/requests/count', { operation: 'publsh' });
    expect(count.status).toBe(400);
    expect(await count.json()).toMatchObject({ code: 'invalid_body', message: expect.stringContaining("'publsh'") });
    const list = await client.control('GET', '/requests?operation=publsh');
    expect(list.status).toBe(400);
    expect(await list.json()).toMatchObject({ code: 'invalid_parameter' });
    await expect(emulator.countRequests({ operation: 'publsh' })).rejects.toThrow(/No operation is called 'publsh'/);
    expect(await emulator.countRequests({ operation: 'publish' })).toEqual({ count: 0 });
  });

  it('journals service requests with who called, where the credential was, and what was answered', async () => {
    const done = journalled(5);
    expect((await client.publish('t', 'one')).status).toBe(204);
    const answer = await client.subscribe('t', { seq: 1, page: 0 });
    expect(answer.status).toBe(200);
    await answer.text();
    const bearer = await fetch(`${emulator.url}/topics/${CACHE}/t`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.apiKey}`, 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(bearer.status).toBe(401);
    const both = await fetch(`${emulator.url}/topics/${CACHE}/t?token=${emulator.apiKey}`, {
      headers: { authorization: emulator.apiKey },
    });
    expect(both.status).toBe(400);
    expect((await client.control('POST', '/clock', { advanceMs: 1 })).status).toBe(200);
    await done;

    const { entries } = await emulator.requests({ limit: 10 });
    expect(entries.map((e) => [e.plane, e.operation, e.status])).toEqual([
      ['control', 'setClock', 200],
      ['service', 'subscribe', 400],
      ['service', 'publish', 401],
      ['service', 'subscribe', 200],
      ['service', 'publish', 204],
    ]);
    const [clock, twice, bearerEntry, subscribe, publish] = entries;
    expect(publish!.client).toMatch(/^key:#[\w-]{12}$/);
    expect(JSON.stringify(entries)).not.toContain(emulator.apiKey);
    expect(subscribe).toMatchObject({
      cursor: { sequenceNumber: 1, sequencePage: 0 },
      items: [1],
      client: publish!.client,
    });
    expect(subscribe!.page).toBeGreaterThan(0);
    expect(bearerEntry).toMatchObject({ bearer: true, code: 'invalid_token', credentialPlace: 'header' });
    expect(twice).toMatchObject({ credentialPlace: 'both', code: 'token_in_header_and_query' });
    expect(clock).toMatchObject({ client: null, credentialPlace: 'none' });
    expect(entries[0]!.id).toBeGreaterThan(entries[4]!.id);
  });

  it('answers the listing and the count over HTTP, without journalling those reads, and forgets on reset', async () => {
    const done = journalled(3);
    const fault = { operation: 'publish', topic: 'busy', status: 429, count: 1 };
    expect((await client.control('POST', '/faults', fault)).status).toBe(201);
    expect((await client.publish('busy')).status).toBe(429);
    expect((await client.publish('busy')).status).toBe(204);
    await done;
    const listed = await client.control('GET', '/requests?operation=publish&status=429');
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { entries: { retryAfterSeconds: number; code: string }[] };
    expect(body.entries).toHaveLength(1);
    expect(body.entries[0]).toMatchObject({ retryAfterSeconds: 1, code: 'limit_exceeded' });
    const counted = await client.control('POST', '/requests/count', { operation: 'publish', topic: 'busy' });
    expect(await counted.json()).toEqual({ count: 2 });
    expect((await client.control('GET', '/clients')).status).toBe(200);
    // The reads above are not in the journal; the fault's control call is.
    expect(await emulator.countRequests({ plane: 'control' })).toEqual({ count: 1 });
    // The dashboard's filters are these: errors only, and an error code, over the whole journal.
    const failures = (await (await client.control('GET', '/requests?failed=true')).json()) as { entries: unknown[] };
    expect(failures.entries).toHaveLength(1);
    const byCode = (await (await client.control('GET', '/requests?code=limit_exceeded&failed=false')).json()) as {
      entries: unknown[];
    };
    expect(byCode.entries).toEqual([]);
    expect((await client.control('GET', '/requests?failed=yes')).status).toBe(400);
    expect((await client.control('GET', '/requests?status=9')).status).toBe(400);
    expect((await client.control('POST', '/requests/count', { colour: 'red' })).status).toBe(400);
    await expect(emulator.requests({ limit: 0 })).rejects.toThrow(/invalid/);
    emulator.reset();
    expect((await emulator.requests()).entries).toEqual([]);
  });

  it('leaves out what only observes: the dashboard, its event stream, state, metrics, snapshot, messages', async () => {
    const done = journalled(10);
    const stream = new AbortController();
    const events = await fetch(`${emulator.url}/_emulator/events`, { signal: stream.signal });
    expect(events.status).toBe(200);
    for (const path of ['/ui', '/ui/dashboard.js', '/ui/dashboard.css', '/state', '/metrics', '/snapshot'])
      await (await client.control('GET', path)).arrayBuffer();
    expect((await client.control('GET', `/topics/${CACHE}/t/messages`)).status).toBe(200);
    stream.abort();
    expect((await client.control('POST', '/clock', { advanceMs: 1 })).status).toBe(200);
    expect((await client.publish('t', 'kept')).status).toBe(204);
    await done;
    const { entries } = await emulator.requests();
    expect(entries.map((e) => e.operation)).toEqual(['publish', 'setClock']);
  });

  it('marks a dropped connection and a client that went away, and the cursor a first request left out', async () => {
    const done = journalled(2);
    emulator.addFault({ operation: 'subscribe', topic: 'gone', drop: true, count: 1 });
    await expect(
      fetch(`${emulator.url}/topics/${CACHE}/gone`, { headers: { authorization: emulator.apiKey } }),
    ).rejects.toThrow();
    const controller = new AbortController();
    const waiting = fetch(`${emulator.url}/topics/${CACHE}/quiet`, {
      headers: { authorization: emulator.apiKey },
      signal: controller.signal,
    }).catch(() => undefined);
    await expect.poll(() => emulator.state().waitingSubscribers.length).toBe(1);
    controller.abort();
    await waiting;
    await done;
    const [gone, dropped] = (await emulator.requests()).entries;
    expect(dropped).toMatchObject({ topic: 'gone', dropped: true, clientGone: false, status: null, cursor: null });
    expect(gone).toMatchObject({ topic: 'quiet', dropped: false, clientGone: true, status: null });
    expect(gone!.waitedMs).toBeGreaterThanOrEqual(0);
  });
});
