import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';

// Probe: with 1e6 topics loaded, `GET /_emulator/state` took 13 s and answered every topic in one
// body (and the event stream's hello carried the same). A snapshot now holds at most 100,000
// topics, and a read of the state answers its long lists a page at a time (StatePage: at most
// 10,000 of each by default), with `topicCount` and `waitingSubscriberCount` so a reader knows
// how many pages there are.

const TOPICS = 25_000;
let emulator: RunningEmulator;
const headers = () => ({ authorization: emulator.apiKey });
const read = async (query = '') => {
  const response = await fetch(`${emulator.url}/_emulator/state${query}`, { headers: headers() });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { topics: unknown[] } };
};

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
  for (let i = 0; i < TOPICS; i++) void emulator.context.store.publish('default-cache', `topic-${i}`, { text: 'x' });
});
afterAll(async () => {
  await emulator?.close();
});

describe('a large state reads in pages', () => {
  it('answers the first 10,000 topics by default, says how many there are, and pages through the rest in order', async () => {
    const first = await read();
    expect(first.status).toBe(200);
    expect(first.body.topics).toHaveLength(10_000);
    expect(first.body.topicCount).toBe(TOPICS);
    const seen: string[] = [];
    for (let offset = 0; offset < TOPICS; offset += 10_000) {
      const page = await read(`?offset=${offset}`);
      seen.push(...page.body.topics.map((t) => (t as { topic: string }).topic));
    }
    expect(seen).toHaveLength(TOPICS);
    expect(new Set(seen).size).toBe(TOPICS);
    expect(seen.at(-1)).toBe(`topic-${TOPICS - 1}`);
    expect((await read(`?limit=100000`)).body.topics).toHaveLength(TOPICS);
    expect((await read(`?offset=${TOPICS}`)).body.topics).toEqual([]);
  });

  it('pages the waiting subscribers the same way', async () => {
    const controller = new AbortController();
    const polls = [1, 2, 3].map((n) =>
      fetch(`${emulator.url}/topics/default-cache/waiting-${n}`, {
        headers: headers(),
        signal: controller.signal,
      }).catch(() => undefined),
    );
    try {
      await vi.waitFor(() => expect(emulator.state().waitingSubscriberCount).toBe(3), { timeout: 5000 });
      const page = await read('?limit=2&offset=1');
      expect(page.body.waitingSubscribers).toHaveLength(2);
      expect(page.body.waitingSubscriberCount).toBe(3);
      expect(emulator.state({ limit: 1 }).waitingSubscribers).toHaveLength(1);
    } finally {
      controller.abort();
      await Promise.all(polls);
    }
  });

  it('refuses a page it cannot answer with invalid_parameter naming the bound', async () => {
    for (const [query, says] of [
      ['?limit=100001', /querystring.limit must be <= 100000/],
      ['?limit=0', /limit must be >= 1/],
      ['?limit=ten', /limit must be a whole number from 1 to 100000/],
      ['?offset=-1', /offset/],
    ] as const) {
      const { status, body } = await read(query);
      expect(status, query).toBe(400);
      expect(body.code, query).toBe('invalid_parameter');
      expect(body.message, query).toMatch(says);
    }
    expect(() => emulator.state({ limit: 0 })).toThrow(/limit must be >= 1/);
  });
});
