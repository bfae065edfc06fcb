import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { MAX_KEPT_CHARS } from '../../emulator/journal/journal.js';

// Probe: the journal was bounded by entries, not bytes: 10,000 unauthenticated 404s with
// 8,000-character paths added 80 MB of heap (the README said "about 2 MB"), and each entry kept
// a subscribe's items as an array of up to --max-batch numbers. Every string an entry keeps is
// at most MAX_KEPT_CHARS now, and items are kept as their first number and count.

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', journalSize: 2000 });
});
afterAll(async () => {
  await emulator.close();
});

describe('the journal', () => {
  it('keeps at most 256 characters of a path, cache or topic, whatever is sent', async () => {
    // Unauthenticated, as the probe sent them: 404s on 8,000-character paths, 401s on 2,000-character topics.
    const paths = (i: number) => [
      `/nowhere${'/abc'.repeat(1998)}/${i}`,
      `/topics/default-cache/${'y'.repeat(2000)}${i}`,
    ];
    const sent = 2000;
    for (let i = 0; i < sent / 2; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, j) => paths(i + j)).flatMap((pair) =>
          pair.map((path) => fetch(emulator.url + path, { method: 'POST', body: 'x' }).then((r) => r.arrayBuffer())),
        ),
      );
    const { entries } = await emulator.requests({ limit: 10_000 });
    expect(entries.length).toBe(sent);
    for (const entry of entries)
      for (const field of [entry.path, entry.cache, entry.topic])
        expect(field?.length ?? 0).toBeLessThanOrEqual(MAX_KEPT_CHARS);
    // 2,000 entries of 8 KB paths (16 MB sent) are kept in well under a megabyte of JSON.
    expect(JSON.stringify(entries).length).toBeLessThan(sent * 1024);
  });

  it('gives a subscribe’s items back as delivered, kept as two numbers', async () => {
    emulator.reset();
    for (let i = 0; i < 50; i++)
      await fetch(`${emulator.url}/topics/default-cache/many`, {
        method: 'POST',
        headers: { authorization: emulator.apiKey, 'content-type': 'text/plain' },
        body: `m${i}`,
      });
    const page = emulator.state().topics.find((t) => t.topic === 'many')!.page;
    const answer = await fetch(`${emulator.url}/topics/default-cache/many?sequence_number=1&sequence_page=${page}`, {
      headers: { authorization: emulator.apiKey },
    });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    const [entry] = (await emulator.requests({ operation: 'subscribe', limit: 1 })).entries;
    expect(entry!.items).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});
