import { describe, expect, it, vi } from 'vitest';
import { TopicsHttpError, TopicsProtocolError, type TopicEvent } from '../../client/index.js';
import { discontinuity, hold, items, json, textItem } from './fake-server.js';
import { useFakeServer } from './fixture.js';

const ctx = useFakeServer();

/** The first `count` events, then leaves the loop (which ends the subscription). */
async function take(events: AsyncIterable<TopicEvent>, count: number): Promise<TopicEvent[]> {
  const taken: TopicEvent[] = [];
  if (count === 0) return taken;
  for await (const event of events) {
    taken.push(event);
    if (taken.length === count) break;
  }
  return taken;
}

const cursorOf = (index: number) => {
  const { sequence_number, sequence_page } = ctx.server.query(index);
  return { sequence_number, sequence_page };
};

describe('subscribe', () => {
  it('starts at 0/0 and resumes with last + 1 and the last page', async () => {
    ctx.server.script(items(textItem(1, 500, 'a'), textItem(2, 500, 'b')), items(textItem(3, 500, 'c')));
    const events = await take(ctx.client.subscribe('default-cache', 'news'), 3);
    expect(events).toEqual([
      { kind: 'item', sequenceNumber: 1, sequencePage: 500, value: { text: 'a' } },
      { kind: 'item', sequenceNumber: 2, sequencePage: 500, value: { text: 'b' } },
      { kind: 'item', sequenceNumber: 3, sequencePage: 500, value: { text: 'c' } },
    ]);
    expect(ctx.server.requests[0]?.method).toBe('GET');
    expect(ctx.server.requests[0]?.url.startsWith('/topics/default-cache/news?')).toBe(true);
    expect(ctx.server.requests[0]?.headers['authorization']).toBe('k');
    expect(cursorOf(0)).toEqual({ sequence_number: '0', sequence_page: '0' });
    expect(cursorOf(1)).toEqual({ sequence_number: '3', sequence_page: '500' });
    expect(ctx.server.requests).toHaveLength(2);
  });

  it('starts from the given cursor', async () => {
    ctx.server.script(items(textItem(42, 7, 'x')));
    await take(ctx.client.subscribe('c', 't', { from: { sequenceNumber: 42, sequencePage: 7 } }), 1);
    expect(cursorOf(0)).toEqual({ sequence_number: '42', sequence_page: '7' });
  });

  it('surfaces a discontinuity and resumes at its new sequence and page', async () => {
    ctx.server.script(items(discontinuity(5, 9, 777)), items(textItem(9, 777, 'after')));
    const subscription = ctx.client.subscribe('c', 't', { from: { sequenceNumber: 6, sequencePage: 100 } });
    const events = await take(subscription, 2);
    expect(events).toEqual([
      { kind: 'discontinuity', lastTopicSequence: 5, newTopicSequence: 9, newSequencePage: 777 },
      { kind: 'item', sequenceNumber: 9, sequencePage: 777, value: { text: 'after' } },
    ]);
    expect(cursorOf(1)).toEqual({ sequence_number: '9', sequence_page: '777' });
    expect(subscription.cursor).toEqual({ sequenceNumber: 10, sequencePage: 777 });
  });

  it('follows a discontinuity placed before its item in one response (the docs example)', async () => {
    ctx.server.script(items(discontinuity(100, 104, 1748358253), textItem(104, 1748358253, 'hello')));
    const subscription = ctx.client.subscribe('c', 't', { from: { sequenceNumber: 101, sequencePage: 1748358200 } });
    const events = await take(subscription, 2);
    expect(events.map((e) => e.kind)).toEqual(['discontinuity', 'item']);
    expect(subscription.cursor).toEqual({ sequenceNumber: 105, sequencePage: 1748358253 });
  });

  it('polls again with the same cursor after an empty items (a long-poll timeout)', async () => {
    ctx.server.script(items(textItem(3, 42, 'three')), items(), items(), items(textItem(4, 42, 'four')));
    const events = await take(ctx.client.subscribe('c', 't'), 2);
    expect(events.map((e) => e.kind === 'item' && e.sequenceNumber)).toEqual([3, 4]);
    expect([1, 2, 3].map(cursorOf)).toEqual(Array(3).fill({ sequence_number: '4', sequence_page: '42' }));
  });

  it('decodes binary values from base64, byte for byte', async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => 255 - i);
    const binaryItem = (n: number, binary: string) => ({
      item: { topic_sequence_number: n, sequence_page: 1, value: { binary } },
    });
    ctx.server.script(
      items(
        binaryItem(1, Buffer.from(bytes).toString('base64')),
        binaryItem(2, ''),
        binaryItem(3, Buffer.from([0xfb, 0xff]).toString('base64url')), // URL-safe, unpadded
        textItem(4, 1, '✓'),
      ),
    );
    const events = await take(ctx.client.subscribe('c', 't'), 4);
    const values = events.map((e) => (e.kind === 'item' ? e.value : undefined));
    const first = values[0];
    expect(first && 'binary' in first && first.binary).toBeInstanceOf(Uint8Array);
    expect(first && 'binary' in first && [...first.binary]).toEqual([...bytes]);
    expect(values.slice(1).map((v) => (v && 'binary' in v ? [...v.binary] : v))).toEqual([
      [],
      [0xfb, 0xff],
      { text: '✓' },
    ]);
  });

  it.each([
    ['a body that is not JSON', (res: import('node:http').ServerResponse) => res.end('{items')],
    ['no items array', json(200, { messages: [] })],
    [
      'an element with both members',
      json(200, { items: [{ ...(textItem(1, 1, 'a') as object), ...(discontinuity(0, 1, 1) as object) }] }),
    ],
    ['an element with neither member', json(200, { items: [{ heartbeat: {} }] })],
    [
      'a value with neither text nor binary',
      json(200, { items: [{ item: { topic_sequence_number: 1, sequence_page: 1, value: {} } }] }),
    ],
    ['a non-integer sequence number', json(200, { items: [textItem(1.5, 1, 'a')] })],
    ['a missing page', json(200, { items: [{ item: { topic_sequence_number: 1, value: { text: 'a' } } }] })],
    [
      'binary that is not base64',
      json(200, { items: [{ item: { topic_sequence_number: 1, sequence_page: 1, value: { binary: '*' } } }] }),
    ],
  ])('throws TopicsProtocolError, without retrying, for %s', async (_, answer) => {
    ctx.server.script(answer);
    const sleep = vi.fn(async () => {});
    const error = await take(ctx.client.subscribe('c', 't', { retry: { sleep } }), 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TopicsProtocolError);
    expect(error).toMatchObject({ status: 200 });
    expect(ctx.server.requests).toHaveLength(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('keeps members the document does not name', async () => {
    const extra = {
      item: { topic_sequence_number: 1, sequence_page: 1, value: { text: 'a' }, publisher_id: 'p' },
      x: 1,
    };
    ctx.server.script(json(200, { items: [extra], next: 'ignored' }));
    const events = await take(ctx.client.subscribe('c', 't'), 1);
    expect(events).toEqual([{ kind: 'item', sequenceNumber: 1, sequencePage: 1, value: { text: 'a' } }]);
  });
});

describe('ending a subscription', () => {
  it('returns quietly when the signal fires during a long-poll, and drops the request', async () => {
    ctx.server.script(hold);
    const controller = new AbortController();
    const pending = ctx.client.subscribe('c', 't', { signal: controller.signal }).next();
    const request = await ctx.server.request(0);
    controller.abort();
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
    await request.closed;
    expect(request.finished()).toBe(false);
  });

  it('makes no request when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    const events = await take(ctx.client.subscribe('c', 't', { signal: controller.signal }), 5);
    expect(events).toEqual([]);
    expect(ctx.server.requests).toHaveLength(0);
  });

  it('stops between the events of one response when the signal fires', async () => {
    ctx.server.script(items(textItem(1, 1, 'a'), textItem(2, 1, 'b')));
    const controller = new AbortController();
    const subscription = ctx.client.subscribe('c', 't', { signal: controller.signal });
    expect((await subscription.next()).done).toBe(false);
    controller.abort();
    expect(await subscription.next()).toEqual({ done: true, value: undefined });
    expect(subscription.cursor).toEqual({ sequenceNumber: 2, sequencePage: 1 });
  });

  it('ends when the consumer breaks out, keeping the cursor of the last event handed out', async () => {
    ctx.server.script(items(textItem(1, 9, 'a'), textItem(2, 9, 'b'), textItem(3, 9, 'c')));
    const subscription = ctx.client.subscribe('c', 't');
    await take(subscription, 1);
    expect(await subscription.next()).toEqual({ done: true, value: undefined });
    expect(subscription.cursor).toEqual({ sequenceNumber: 2, sequencePage: 9 });
    expect(ctx.server.requests).toHaveLength(1);
  });

  it('return() during a long-poll ends the pending next() at once and drops the request', async () => {
    ctx.server.script(hold);
    const subscription = ctx.client.subscribe('c', 't');
    const pending = subscription.next();
    const request = await ctx.server.request(0);
    await expect(subscription.return()).resolves.toEqual({ done: true, value: undefined });
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
    await request.closed;
    expect(request.finished()).toBe(false);
  });

  it("stops listening to the caller's signal once it has ended", async () => {
    ctx.server.script(items(textItem(1, 1, 'a')));
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    await take(ctx.client.subscribe('c', 't', { signal: controller.signal }), 1);
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });
});

describe('poll', () => {
  it('returns the wire response as sent, binary still base64', async () => {
    const body = { items: [{ item: { topic_sequence_number: 8, sequence_page: 3, value: { binary: 'AAEC' } } }] };
    ctx.server.script(json(200, body));
    const response = await ctx.client.poll('c', 't', { sequenceNumber: 8, sequencePage: 3 });
    expect(response).toEqual(body);
    expect(cursorOf(0)).toEqual({ sequence_number: '8', sequence_page: '3' });
  });

  it('sends 0/0 without a cursor, and throws an error status without retrying', async () => {
    ctx.server.script(json(503, { code: 'internal_error', message: 'down' }, { 'retry-after': '1' }));
    const error = await ctx.client.poll('c', 't').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TopicsHttpError);
    expect(error).toMatchObject({ status: 503, code: 'internal_error', retryAfterSeconds: 1 });
    expect(cursorOf(0)).toEqual({ sequence_number: '0', sequence_page: '0' });
    expect(ctx.server.requests).toHaveLength(1);
  });
});
