// The client against the real emulator, as a user's test would drive it. The client itself
// knows nothing of the emulator; only this test starts one.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TopicsClient, TopicsHttpError, type TopicEvent } from '../../client/index.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, logLevel: 'silent' });
});
afterAll(async () => {
  await emulator?.close();
});

const CACHE = 'default-cache';

describe('client round trip against the emulator', () => {
  it.each(['header', 'query'] as const)(
    'publishes text and bytes and receives them in order (token in %s)',
    async (tokenIn) => {
      const client = new TopicsClient({ baseUrl: emulator.url, token: emulator.apiKey, tokenIn });
      const topic = `round-trip-${tokenIn}`;
      const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
      await client.publish(CACHE, topic, 'héllo ✓');
      await client.publish(CACHE, topic, bytes);

      // From number 1 on the current page (0): both retained messages, in order.
      const subscription = client.subscribe(CACHE, topic, { from: { sequenceNumber: 1, sequencePage: 0 } });
      const received: TopicEvent[] = [];
      for (let i = 0; i < 2; i += 1) {
        const next = await subscription.next();
        if (!next.done) received.push(next.value);
      }
      const [first, second] = received;
      expect(first).toMatchObject({ kind: 'item', sequenceNumber: 1, value: { text: 'héllo ✓' } });
      expect(second).toMatchObject({ kind: 'item', sequenceNumber: 2 });
      expect(second?.kind === 'item' && 'binary' in second.value && [...second.value.binary]).toEqual([...bytes]);
      const page = first?.kind === 'item' ? first.sequencePage : -1;
      expect(second).toMatchObject({ sequencePage: page });

      // A waiting long-poll is answered by the next publish, resuming at 3.
      const waiting = subscription.next();
      await client.publish(CACHE, topic, 'third');
      await expect(waiting).resolves.toEqual({
        done: false,
        value: { kind: 'item', sequenceNumber: 3, sequencePage: page, value: { text: 'third' } },
      });
      expect(subscription.cursor).toEqual({ sequenceNumber: 4, sequencePage: page });
      await subscription.return();
    },
  );

  it("throws the emulator's error code for an unknown cache, and for a bad token without retrying", async () => {
    const client = new TopicsClient({ baseUrl: emulator.url, token: emulator.apiKey });
    await expect(client.publish('no-such-cache', 't', 'x')).rejects.toMatchObject({
      status: 404,
      code: 'cache_not_found',
    });
    const stranger = new TopicsClient({ baseUrl: emulator.url, token: 'not-a-key' });
    const error = await stranger
      .subscribe(CACHE, 't')
      .next()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TopicsHttpError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_token' });
  });
});
