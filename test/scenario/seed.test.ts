import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { CACHE, clientOf, itemsOf, numbersOf, start, waitForWaiting } from '../control/helpers.js';

// A scenario's `topics`: messages published in order when it is applied (at start, on every
// reset, or through POST /_emulator/scenario), numbered as any publish.

const fixture = fileURLToPath(new URL('../../fixtures/scenarios/seeded-topics.yaml', import.meta.url));

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('scenario topics', () => {
  it('--scenario seeds the topics at start: a replay finds the messages in order, text and exact bytes', async () => {
    emulator = await start({ scenario: fixture });
    const body = await itemsOf(await clientOf(emulator).subscribe('orders', { seq: 1 }));
    const page = emulator.state().topics.find((t) => t.topic === 'orders')!.page;
    expect(body.items).toEqual([
      { item: { sequence_page: page, topic_sequence_number: 1, value: { text: '{"order": 1, "item": "tea"}' } } },
      { item: { sequence_page: page, topic_sequence_number: 2, value: { text: '{"order": 2, "item": "coffee"}' } } },
      { item: { sequence_page: page, topic_sequence_number: 3, value: { binary: 'AAEC/v8=' } } },
    ]);
    expect(numbersOf(await itemsOf(await clientOf(emulator).subscribe('greetings', { seq: 1 })))).toEqual([1]);
  });

  it('seeds again after a reset, on a new page, numbered from 1; later schedules count the seeded messages', async () => {
    emulator = await start({ scenario: fixture });
    const pageBefore = emulator.state().topics.find((t) => t.topic === 'orders')!.page;
    emulator.reset();
    const orders = () => emulator!.state().topics.find((t) => t.topic === 'orders')!;
    expect(orders().page).toBeGreaterThan(pageBefore);
    expect([orders().firstSequenceNumber, orders().lastSequenceNumber]).toEqual([1, 3]);
    // The scenario's page change after message 4: the next publish is 4, then the page changes.
    const page = orders().page;
    expect((await clientOf(emulator).publish('orders', 'fourth')).status).toBe(204);
    expect(orders().page).toBeGreaterThan(page);
  });

  it('through POST /_emulator/scenario: a waiting subscriber gets the seeded messages, and the answer says what was published', async () => {
    emulator = await start();
    const client = clientOf(emulator);
    const waiting = client.subscribe('t');
    await waitForWaiting(emulator, 1);
    const response = await client.control('POST', '/scenario', {
      topics: [{ cache: CACHE, topic: 't', messages: [{ text: 'a' }, { text: 'b' }] }],
    });
    expect(response.status).toBe(200);
    const applied = (await response.json()) as { topics: { page: number }[] };
    expect(applied.topics).toEqual([
      { cache: CACHE, topic: 't', page: expect.any(Number), published: 2, nextSequenceNumber: 3 },
    ]);
    // As with publishes: the first message answers the waiting subscriber, the next request gets the rest.
    expect(numbersOf(await itemsOf(await waiting))).toEqual([1]);
    expect(numbersOf(await itemsOf(await client.subscribe('t', { seq: 2, page: applied.topics[0]!.page })))).toEqual([
      2,
    ]);
  });

  it.each([
    [
      'a cache that does not exist: 404',
      [{ cache: 'nope', topic: 't', messages: [{ text: 'x' }] }],
      404,
      'cache_not_found',
    ],
    [
      'a message over the payload limit: 400',
      [{ cache: CACHE, topic: 't', messages: [{ text: 'x' }, { text: 'y'.repeat(11) }] }],
      400,
      'invalid_body',
    ],
    [
      'binary that is not base64: 400',
      [{ cache: CACHE, topic: 't', messages: [{ binary: 'no!' }] }],
      400,
      'invalid_body',
    ],
  ])('%s, and nothing is published', async (_name, topics, status, code) => {
    emulator = await start({ payloadLimitBytes: 10 });
    const response = await clientOf(emulator).control('POST', '/scenario', {
      topics: [{ cache: CACHE, topic: 'first', messages: [{ text: 'ok' }] }, ...topics],
    });
    expect(response.status).toBe(status);
    expect(((await response.json()) as { code: string }).code).toBe(code);
    expect(emulator.state().topics).toEqual([]);
  });
});
