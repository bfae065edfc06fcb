import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { CACHE, clientOf, start } from './helpers.js';

// GET /_emulator/topics/{cache}/{topic}/messages: what a topic retains, as previews.

describe("a topic's retained messages", () => {
  let emulator: RunningEmulator;
  let client: ReturnType<typeof clientOf>;
  beforeAll(async () => {
    emulator = await start({ retention: 3 });
    client = clientOf(emulator);
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.reset());

  it('lists the retained ones, oldest first, with their page, a preview and the size', async () => {
    for (const text of ['one', 'two', 'three', 'four']) expect((await client.publish('t', text)).status).toBe(204);
    const binary = await fetch(`${emulator.url}/topics/${CACHE}/t`, {
      method: 'POST',
      headers: { authorization: emulator.apiKey, 'content-type': 'application/octet-stream' },
      body: new Uint8Array([0, 1, 2, 255]),
    });
    expect(binary.status).toBe(204);
    const answer = await client.control('GET', `/topics/${CACHE}/t/messages`);
    expect(answer.status).toBe(200);
    const { page } = emulator.state().topics[0]!;
    expect(await answer.json()).toEqual({
      cache: CACHE,
      topic: 't',
      page,
      nextSequenceNumber: 6,
      messages: [
        { sequenceNumber: 3, page, value: { text: 'three' }, size: 5, truncated: false },
        { sequenceNumber: 4, page, value: { text: 'four' }, size: 4, truncated: false },
        { sequenceNumber: 5, page, value: { binary: 'AAEC/w==' }, size: 4, truncated: false },
      ],
    });
  });

  it('cuts long values to a preview, like the event stream', async () => {
    expect((await client.publish('long', 'x'.repeat(600))).status).toBe(204);
    const [message] = emulator.topicMessages(CACHE, 'long').messages;
    expect(message).toMatchObject({ value: { text: 'x'.repeat(512) }, size: 600, truncated: true });
  });

  it('answers an unknown topic with nothing and does not create it; an unknown cache is 404', async () => {
    expect(emulator.topicMessages(CACHE, 'never')).toEqual({
      cache: CACHE,
      topic: 'never',
      page: null,
      nextSequenceNumber: 1,
      messages: [],
    });
    expect(emulator.state().topics).toEqual([]);
    const missing = await client.control('GET', '/topics/no-such-cache/t/messages');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'cache_not_found' });
    expect(() => emulator.topicMessages('', 't')).toThrow(/invalid/);
  });
});
