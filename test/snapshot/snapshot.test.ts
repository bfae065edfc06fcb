import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import type { Snapshot } from '../../emulator/snapshot/document.js';
import { CACHE, clientOf, itemsOf, numbersOf, publishMany, start, waitForWaiting } from '../control/helpers.js';

// GET and PUT /_emulator/snapshot (and the same as snapshot() / restore()): the whole state out
// and back in, exactly; a bad snapshot is a 400 that changes nothing; waiting subscribers are
// answered as by a reset and continue from their cursors.

const started: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.close()));
});

async function emulator(options: Parameters<typeof start>[0] = {}): Promise<RunningEmulator> {
  const e = await start(options);
  started.push(e);
  return e;
}

const BYTES = Uint8Array.from([0, 1, 2, 254, 255, 0x7b, 0x22, 10]);

async function publishBinary(e: RunningEmulator, topic: string, bytes: Uint8Array): Promise<void> {
  const response = await fetch(`${e.url}/topics/${CACHE}/${topic}`, {
    method: 'POST',
    headers: { authorization: e.apiKey, 'content-type': 'application/octet-stream' },
    body: bytes as BodyInit,
  });
  expect(response.status).toBe(204);
}

async function getSnapshot(e: RunningEmulator): Promise<Snapshot> {
  const response = await clientOf(e).control('GET', '/snapshot');
  expect(response.status).toBe(200);
  return (await response.json()) as Snapshot;
}

async function putSnapshot(e: RunningEmulator, snapshot: unknown): Promise<Response> {
  return clientOf(e).control('PUT', '/snapshot', snapshot);
}

/** An emulator with something of everything in it, on a virtual clock. */
async function busyEmulator(): Promise<RunningEmulator> {
  const e = await emulator();
  const client = clientOf(e);
  e.setClock({ setTo: '2030-01-02T03:04:05.000Z' });
  await publishMany(e, 'texts', 3);
  expect((await client.publish('texts', 'ünïcödé "quoted" \u2028 line')).status).toBe(204);
  await publishBinary(e, 'bytes', BYTES);
  await publishBinary(e, 'bytes', new Uint8Array(0));
  e.resetTopic(CACHE, 'paged');
  await publishMany(e, 'paged', 2);
  e.resetTopic(CACHE, 'texts', { afterSequenceNumber: 9 });
  e.resetTopic(CACHE, 'bytes', { afterMs: 60_000 });
  const counted = e.addFault({ operation: 'publish', topic: 'faulty', status: 500, count: 3, skip: 1 });
  expect((await client.publish('faulty')).status).toBe(204); // skipped
  expect((await client.publish('faulty')).status).toBe(500); // fired 1 of 3
  e.addFault({ operation: 'subscribe', status: 503, startAfterMs: 5_000, durationMs: 10_000 });
  e.addFault({ operation: 'publish', topic: 'dice', status: 429, probability: 0.5, seed: 7 });
  e.startChaos({ seed: 42, rate: 0.5, topic: 'chaotic', kinds: ['throttle', 'error'] });
  for (let i = 0; i < 3; i++) await client.publish('chaotic');
  e.setLimits({ enabled: false, operationsPerSecond: 123, concurrentSubscriptions: 45 });
  e.revokeToken('gone');
  e.expireToken('later', { afterMs: 30_000 });
  expect(e.fault(counted.id).fired).toBe(1);
  return e;
}

describe('GET /_emulator/snapshot', () => {
  it('holds topics with their page, next number and retained messages, byte for byte', async () => {
    const e = await busyEmulator();
    const snapshot = await getSnapshot(e);
    expect(snapshot).toMatchObject({
      format: 'topics-emulator/snapshot',
      version: 1,
      takenAt: '2030-01-02T03:04:05.000Z',
    });
    const topic = (name: string) => snapshot.topics.find((t) => t.topic === name)!;
    expect(topic('texts').messages.map((m) => m.value)).toEqual([
      { text: 'm0' },
      { text: 'm1' },
      { text: 'm2' },
      { text: 'ünïcödé "quoted" \u2028 line' },
    ]);
    expect(topic('texts').nextSequenceNumber).toBe(5);
    expect(topic('bytes').messages).toEqual([
      { sequenceNumber: 1, value: { binary: Buffer.from(BYTES).toString('base64') } },
      { sequenceNumber: 2, value: { binary: '' } },
    ]);
    expect(topic('paged').page).toBeGreaterThan(topic('texts').page);
    expect(snapshot.lastPage).toBe(Math.max(...snapshot.topics.map((t) => t.page)));
    expect(snapshot.topicResets).toEqual([
      { cache: CACHE, topic: 'texts', afterSequenceNumber: 9 },
      { cache: CACHE, topic: 'bytes', at: '2030-01-02T03:05:05.000Z' },
    ]);
    expect(snapshot.faults.map((f) => [f.id, f.started, f.matched, f.fired])).toEqual([
      ['f1', true, 2, 1],
      ['f2', false, 0, 0],
      ['f3', true, 0, 0],
    ]);
    expect(snapshot.chaos).toMatchObject({ input: { seed: 42, rate: 0.5, topic: 'chaotic' }, draws: 3 });
    expect(snapshot.limits).toEqual({ enabled: false, operationsPerSecond: 123, concurrentSubscriptions: 45 });
    expect(snapshot.clock).toEqual({ mode: 'virtual', nowMs: Date.parse('2030-01-02T03:04:05.000Z') });
    expect(snapshot.tokenWithdrawals).toEqual([
      { tokenId: 'gone', how: 'revoked', at: '2030-01-02T03:04:05.000Z', scheduled: false },
      { tokenId: 'later', how: 'expired', at: '2030-01-02T03:04:35.000Z', scheduled: true },
    ]);
  });

  it('is the same document as snapshot()', async () => {
    const e = await busyEmulator();
    expect(await getSnapshot(e)).toEqual(e.snapshot());
  });
});

describe('PUT /_emulator/snapshot', () => {
  it('loads into another emulator: the same snapshot comes back out, and the same bodies are served', async () => {
    const source = await busyEmulator();
    const snapshot = await getSnapshot(source);
    const target = await emulator();
    const response = await putSnapshot(target, snapshot);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toEqual({
      topics: 5,
      items: 0,
      messages: snapshot.topics.reduce((sum, t) => sum + t.messages.length, 0),
      faults: 3,
      tokenWithdrawals: 2,
      answeredSubscribers: 0,
      clock: expect.objectContaining({ mode: 'virtual', now: '2030-01-02T03:04:05.000Z' }),
    });
    expect(await getSnapshot(target)).toEqual(snapshot);
    for (const topic of ['texts', 'bytes', 'paged']) {
      const before = await clientOf(source).subscribe(topic, { seq: 1 });
      const after = await clientOf(target).subscribe(topic, { seq: 1 });
      expect(await after.text()).toBe(await before.text());
    }
  });

  it('a client keeps its cursor across the load: same page, the next number, nothing lost', async () => {
    const source = await emulator();
    await publishMany(source, 't', 4);
    const page = source.state().topics[0]!.page;
    const target = await emulator();
    // The target had other history: its own page for t is not the source's.
    await publishMany(target, 't', 1);
    expect(target.restore(source.snapshot()).topics).toBe(1);
    const client = clientOf(target);
    const waiting = client.subscribe('t', { seq: 5, page });
    await waitForWaiting(target, 1);
    expect((await client.publish('t', 'after')).status).toBe(204);
    const body = await itemsOf(await waiting);
    expect(body.items).toEqual([{ item: { sequence_page: page, topic_sequence_number: 5, value: { text: 'after' } } }]);
    // A topic created after the load gets a page greater than every loaded one.
    target.resetTopic(CACHE, 't');
    expect(target.state().topics[0]!.page).toBeGreaterThan(page);
  });

  it('answers waiting subscribers with empty items, as a reset does; their cursors then continue', async () => {
    const e = await emulator();
    await publishMany(e, 't', 2);
    const snapshot = e.snapshot();
    const page = snapshot.topics[0]!.page;
    const client = clientOf(e);
    const waiting = client.subscribe('t', { seq: 3, page });
    await waitForWaiting(e, 1);
    const response = await putSnapshot(e, snapshot);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { answeredSubscribers: number }).answeredSubscribers).toBe(1);
    expect((await itemsOf(await waiting)).items).toEqual([]);
    const again = client.subscribe('t', { seq: 3, page });
    await waitForWaiting(e, 1);
    await client.publish('t', 'third');
    expect(numbersOf(await itemsOf(await again))).toEqual([3]);
  });

  it('fault rules, chaos and token withdrawals continue where they were', async () => {
    const source = await busyEmulator();
    const target = await emulator();
    target.restore(source.snapshot());
    const client = clientOf(target);
    // f1: count 3, fired once: two more, then gone.
    expect((await client.publish('faulty')).status).toBe(500);
    expect((await client.publish('faulty')).status).toBe(500);
    expect((await client.publish('faulty')).status).toBe(204);
    expect(target.faults().map((f) => f.id)).toEqual(['f2', 'f3']);
    expect(target.addFault({ status: 500, count: 1, topic: 'x' }).id).toBe('f4');
    // f3 draws from its seed where it stopped, as the source does.
    const draws = async (e: RunningEmulator) => {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await clientOf(e).publish('dice')).status);
      return statuses;
    };
    expect(await draws(target)).toEqual(await draws(source));
    // Chaos too.
    const chaos = async (e: RunningEmulator) => {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await clientOf(e).publish('chaotic')).status);
      return statuses;
    };
    expect(await chaos(target)).toEqual(await chaos(source));
    // The revoked token stays revoked; the scheduled expiry fires at the same clock time.
    const token = async (e: RunningEmulator, tokenId: string) =>
      (await e.issueToken({ permissions: [{ role: 'publishsubscribe', cache: '*' }], tokenId })).token;
    expect((await client.publish('t', 'm', { token: await token(target, 'gone') })).status).toBe(401);
    const later = await token(target, 'later');
    expect((await client.publish('t', 'm', { token: later })).status).toBe(204);
    target.advanceClock(30_000);
    expect((await client.publish('t', 'm', { token: later })).status).toBe(401);
    // The scheduled page change after message 9 of texts fires there.
    const page = target.state().topics.find((t) => t.topic === 'texts')!.page;
    await publishMany(target, 'texts', 5);
    expect(target.state().topics.find((t) => t.topic === 'texts')!.page).toBeGreaterThan(page);
  });

  it('takes bodies beyond the 1 MiB of other control operations', async () => {
    const e = await emulator({ retention: 1000 });
    const messages = Array.from({ length: 400 }, (_, i) => ({
      sequenceNumber: i + 1,
      value: { text: 'x'.repeat(4000) },
    }));
    const snapshot = {
      ...e.snapshot(),
      topics: [{ cache: CACHE, topic: 'big', page: 7, nextSequenceNumber: 401, messages }],
    };
    expect(JSON.stringify(snapshot).length).toBeGreaterThan(1024 * 1024);
    const response = await putSnapshot(e, snapshot);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(e.state().topics[0]).toMatchObject({ topic: 'big', page: 7, retainedCount: 400 });
    const tooBig = await clientOf(e).control('POST', '/scenario', { description: 'x'.repeat(1024 * 1024) });
    expect(tooBig.status).toBe(413);
  });

  it('keeps the newest --retention messages of a topic with more, with their numbers', async () => {
    const source = await emulator({ retention: 10 });
    await publishMany(source, 't', 10);
    const target = await emulator({ retention: 3 });
    expect(target.restore(source.snapshot()).messages).toBe(3);
    const snapshot = target.snapshot();
    expect(snapshot.topics[0]!.messages.map((m) => m.sequenceNumber)).toEqual([8, 9, 10]);
    expect(snapshot.topics[0]!.nextSequenceNumber).toBe(11);
  });
});

describe('a bad snapshot', () => {
  const broken: [string, (s: Snapshot) => unknown, RegExp][] = [
    ['another format version', (s) => ({ ...s, version: 2 }), /body\.version must be 1/],
    ['a missing member', ({ clock: _clock, ...s }) => s, /needs 'clock'/],
    ['an unknown member', (s) => ({ ...s, extra: true }), /unknown member 'extra'/],
    [
      'binary that is not base64',
      (s) => ({ ...s, topics: [{ ...s.topics[0]!, messages: [{ sequenceNumber: 1, value: { binary: '%%' } }] }] }),
      /body\.topics\.0\.messages\.0\.value/,
    ],
    [
      'a topic in a cache that is not configured',
      (s) => ({ ...s, topics: [{ ...s.topics[0]!, cache: 'nope' }] }),
      /'nope' is not a configured cache/,
    ],
    ['a topic twice', (s) => ({ ...s, topics: [s.topics[0], s.topics[0]] }), /a second time/],
    [
      'a gap in the numbers',
      (s) => ({ ...s, topics: [{ ...s.topics[0]!, nextSequenceNumber: 4 }] }),
      /sequenceNumber must be 2 \(messages are numbered without gaps/,
    ],
    [
      'more messages than were numbered',
      (s) => ({ ...s, topics: [{ ...s.topics[0]!, nextSequenceNumber: 2 }] }),
      /has 2 messages, more than were numbered before nextSequenceNumber 2/,
    ],
    [
      'a message larger than the payload limit (a publish could not make it)',
      (s) => ({
        ...s,
        topics: [
          {
            ...s.topics[0]!,
            messages: [s.topics[0]!.messages[0], { sequenceNumber: 2, value: { text: 'x'.repeat(4097) } }],
          },
        ],
      }),
      /body\.topics\.0\.messages\.1 is 4097 bytes, more than the payload limit \(4096\)/,
    ],
    [
      'more than 100,000 topics (loaded in one turn of the event loop)',
      (s) => ({
        ...s,
        topics: Array.from({ length: 100_001 }, (_, i) => ({
          ...s.topics[0]!,
          topic: `t${i}`,
          messages: [],
          nextSequenceNumber: 1,
        })),
      }),
      /body\.topics must NOT have more than 100000 items/,
    ],
    [
      'a scheduled page change in a cache that is not configured',
      (s) => ({ ...s, topicResets: [{ cache: 'elsewhere', topic: 't', afterSequenceNumber: 3 }] }),
      /body\.topicResets\.0\.cache 'elsewhere' is not a configured cache/,
    ],
    [
      'a scheduled page change with both a number and a time',
      (s) => ({ ...s, topicResets: [{ cache: CACHE, topic: 't', afterSequenceNumber: 3, at: s.takenAt }] }),
      /afterSequenceNumber or at, not both/,
    ],
    [
      'a fault rule whose code does not answer its status',
      (s) => ({
        ...s,
        faults: [
          {
            id: 'f1',
            rule: { status: 500, code: 'cache_not_found' },
            started: true,
            matched: 0,
            fired: 0,
            createdAt: s.takenAt,
          },
        ],
      }),
      /body\.faults\.0\.rule: code 'cache_not_found' answers 404, not 500/,
    ],
    [
      'a time the clock cannot show',
      (s) => ({
        ...s,
        tokenWithdrawals: [{ tokenId: 'x', how: 'revoked', at: '2030-12-31T23:59:60Z', scheduled: false }],
      }),
      /body\.tokenWithdrawals\.0\.at '2030-12-31T23:59:60Z' is not a time the clock can show/,
    ],
    [
      'a real clock past the last date there is',
      (s) => ({ ...s, clock: { mode: 'real', offsetMs: 8_639_936_838_000_000 } }),
      /body\.clock\.offsetMs takes the clock past/,
    ],
    [
      'a fault id twice',
      (s) => {
        const fault = { id: 'f1', rule: { status: 500 }, started: true, matched: 0, fired: 0, createdAt: s.takenAt };
        return { ...s, faults: [fault, fault] };
      },
      /'f1' is used twice/,
    ],
    [
      'an empty collection',
      (s) => ({
        ...s,
        items: [
          { cache: CACHE, key: 'ZA==', value: '', ttlRemainingMs: 1000, collection: { type: 'set', elements: [] } },
        ],
      }),
      /body\.items\.0\.collection has no members/,
    ],
    [
      'a collection with a value of its own',
      (s) => ({
        ...s,
        items: [
          {
            cache: CACHE,
            key: 'ZA==',
            value: 'eA==',
            ttlRemainingMs: 1000,
            collection: { type: 'list', values: ['eQ=='] },
          },
        ],
      }),
      /body\.items\.0\.value must be empty for a collection/,
    ],
  ];

  it.each(broken)('%s: 400 invalid_body, and nothing changes', async (_name, breakIt, message) => {
    const e = await emulator();
    e.setClock({ mode: 'virtual' });
    await publishMany(e, 't', 2);
    const good = e.snapshot();
    e.addFault({ status: 503, topic: 'kept' });
    const client = clientOf(e);
    const waiting = client.subscribe('t', { seq: 3, page: good.topics[0]!.page });
    await waitForWaiting(e, 1);
    const before = e.snapshot();
    const response = await putSnapshot(e, breakIt(structuredClone(good)));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe('invalid_body');
    expect(body.message).toMatch(message);
    expect(e.snapshot()).toEqual(before);
    expect(e.state().waitingSubscribers).toHaveLength(1);
    expect(() => e.restore(breakIt(structuredClone(good)) as Snapshot)).toThrow(message);
    await client.publish('t', 'still served');
    expect(numbersOf(await itemsOf(await waiting))).toEqual([3]);
  });

  it('that is not JSON is a 400 invalid_request', async () => {
    const e = await emulator();
    const response = await clientOf(e).control('PUT', '/snapshot', '{"format":', {
      'content-type': 'application/json',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('invalid_request');
  });
});
