import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { until } from '../helpers/emulator.js';
import { clientOf, start } from './helpers.js';

// The caches through the control plane (GET /_emulator/caches, PUT and DELETE
// /_emulator/caches/{cacheName}): the same operations the SDK's createCache, listCaches and
// deleteCache call, on the same caches.

let emulator: RunningEmulator;
let client: ReturnType<typeof clientOf>;
beforeEach(async () => {
  emulator = await start();
  client = clientOf(emulator);
});
afterEach(() => emulator.close());

const json = async (response: Response) => [response.status, await response.json()] as const;

describe('caches through the control plane', () => {
  it('makes a cache (201, then 200), lists it, serves topics in it, and deletes it (then 404)', async () => {
    expect(await json(await client.control('PUT', '/caches/orders'))).toEqual([
      201,
      { cache: 'orders', changed: true },
    ]);
    expect(await json(await client.control('PUT', '/caches/orders'))).toEqual([
      200,
      { cache: 'orders', changed: false },
    ]);
    expect(await json(await client.control('GET', '/caches'))).toEqual([200, { caches: ['default-cache', 'orders'] }]);
    expect(emulator.cacheNames()).toEqual(['default-cache', 'orders']);
    expect((await client.publish('created', 'm', { cache: 'orders' })).status).toBe(204);

    // A subscriber waiting in the cache is answered when it goes.
    const waiting = fetch(`${emulator.url}/topics/orders/quiet`, { headers: { authorization: emulator.apiKey } });
    await until(() => emulator.context.waiting.size === 1, 'the subscriber waiting', 5000);
    expect(await json(await client.control('DELETE', '/caches/orders'))).toEqual([
      200,
      { cache: 'orders', changed: true },
    ]);
    expect((await waiting).status).toBeLessThan(500);
    const again = await json(await client.control('DELETE', '/caches/orders'));
    expect([again[0], (again[1] as { code: string }).code]).toEqual([404, 'cache_not_found']);
    expect((await client.publish('created', 'm', { cache: 'orders' })).status).toBe(404);
    const journal = await emulator.requests({ operation: 'createCache' });
    // Newest first.
    expect(journal.entries.map((e) => [e.plane, e.status])).toEqual([
      ['control', 200],
      ['control', 201],
    ]);
  });

  it('refuses a name out of bounds, and a reset comes back to the configured caches', async () => {
    const long = await json(await client.control('PUT', `/caches/${'c'.repeat(256)}`));
    expect(long[0]).toBe(400);
    await client.control('PUT', '/caches/scratch');
    emulator.reset();
    expect(emulator.cacheNames()).toEqual(['default-cache']);
  });
});

describe('flushing a cache', () => {
  it('removes its items and leaves its topics; 404 for a cache there is not', async () => {
    const put = await fetch(`${emulator.url}/cache/default-cache?key=k&ttl_seconds=60`, {
      method: 'PUT',
      headers: { authorization: emulator.apiKey },
      body: 'v',
    });
    expect(put.status).toBe(204);
    expect((await client.publish('kept')).status).toBe(204);
    expect(await json(await client.control('POST', '/caches/default-cache/flush'))).toEqual([
      200,
      { cache: 'default-cache', changed: true },
    ]);
    const get = await fetch(`${emulator.url}/cache/default-cache?key=k`, {
      headers: { authorization: emulator.apiKey },
    });
    expect(get.status).toBe(404);
    expect(emulator.state().topics.map((t) => t.topic)).toContain('kept');
    const none = await json(await client.control('POST', '/caches/no-such-cache/flush'));
    expect([none[0], (none[1] as { code: string }).code]).toEqual([404, 'cache_not_found']);
  });
});
