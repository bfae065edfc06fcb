import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { parked } from '../clients/clients.js';

// The README's "Try it with curl" walkthrough, request for request (one person with one key),
// is judged like any client, and keeps every rule: reading the page from its start
// (`sequence_number=1&sequence_page=0`) and a page never received are new reads, not wrong cursors.

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
});
afterAll(async () => {
  await emulator.close();
});

it('the README curl walkthrough keeps every client rule', async () => {
  const topic = `${emulator.url}/topics/default-cache/greetings`;
  const key = emulator.apiKey;
  const get = (query = '') =>
    fetch(`${topic}${query}`, query.includes('token=') ? {} : { headers: { authorization: key } }).then(
      (r) => r.json() as Promise<{ items: { item?: { sequence_page: number } }[] }>,
    );
  const post = (body: BodyInit, type: string) =>
    fetch(topic, { method: 'POST', headers: { authorization: key, 'content-type': type }, body }).then((r) => r.status);

  // Subscribe: a first request waits for the next message; publish text.
  const first = get();
  await parked(emulator, 'greetings');
  expect(await post('hello', 'text/plain')).toBe(204);
  expect((await first).items).toHaveLength(1);
  // Publish binary; read the page from its start (once to see it, once to keep its page).
  expect(await post(new Blob([new Uint8Array([0, 255])]), 'application/octet-stream')).toBe(204);
  expect((await get(`?sequence_number=1&sequence_page=0&token=${key}`)).items).toHaveLength(2);
  const page = (await get(`?sequence_number=1&sequence_page=0&token=${key}`)).items[0]!.item!.sequence_page;
  // Resume with last + 1 and the page, the token in the query.
  expect((await get(`?sequence_number=2&sequence_page=${page}&token=${key}`)).items).toHaveLength(1);
  // Resume at the next number: it waits until someone publishes.
  const waiting = get(`?sequence_number=3&sequence_page=${page}&token=${key}`);
  await parked(emulator, 'greetings');
  expect(await post('wake up', 'text/plain')).toBe(204);
  expect((await waiting).items).toHaveLength(1);
  // A page you no longer have.
  expect((await get(`?sequence_number=300&sequence_page=5435435&token=${key}`)).items[0]).toHaveProperty(
    'discontinuity',
  );

  const { clients } = await emulator.clients();
  expect(clients).toHaveLength(1);
  expect(clients[0]!.counters.polls).toBe(6);
  expect(clients[0]!.violations.map((v) => `${v.rule}: ${v.message}`)).toEqual([]);
});
