import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startBFastify } from '../../bench/baselines/b-fastify.js';
import { startBRef } from '../../bench/baselines/b-ref.js';
import { ServerProcess } from '../../bench/servers/server-process.js';

// The bench's baselines must answer like the emulator's routes, or the comparisons mean nothing.
// Functional checks only: nothing here is timed.

const textHeaders = { 'content-type': 'text/plain', authorization: 'ignored-by-baselines' };

describe('B-fastify', () => {
  it('answers a text publish with 204 and a subscribe with a small JSON page, then closes', async () => {
    const server = await startBFastify();
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const publish = await request(`${server.url}/topics/default-cache/t`, {
        method: 'POST',
        headers: textHeaders,
        body: 'hello',
      });
      expect(publish.statusCode).toBe(204);
      expect(await publish.body.text()).toBe('');
      const subscribe = await request(`${server.url}/topics/default-cache/t?sequence_number=0&sequence_page=0`);
      expect(subscribe.statusCode).toBe(200);
      expect(await subscribe.body.json()).toEqual({
        items: [{ item: { sequence_page: 1, topic_sequence_number: 1, value: { text: 'hello' } } }],
      });
    } finally {
      await server.close();
    }
  });
});

describe('B-ref', () => {
  it('holds a subscribe until a publish to its topic, then delivers that message', async () => {
    let parked!: () => void;
    const isParked = new Promise<void>((resolve) => {
      parked = resolve;
    });
    const server = await startBRef({ onPark: () => parked() });
    try {
      const subscribe = request(`${server.url}/topics/default-cache/t?sequence_number=0&sequence_page=0`);
      await isParked;
      const other = await request(`${server.url}/topics/default-cache/other`, {
        method: 'POST',
        headers: textHeaders,
        body: 'not for t',
      });
      expect(other.statusCode).toBe(204);
      const publish = await request(`${server.url}/topics/default-cache/t`, {
        method: 'POST',
        headers: textHeaders,
        body: 'for t',
      });
      expect(publish.statusCode).toBe(204);
      const answer = await subscribe;
      expect(answer.statusCode).toBe(200);
      expect(await answer.body.json()).toEqual({
        items: [{ item: { sequence_page: 1, topic_sequence_number: 1, value: { text: 'for t' } } }],
      });
    } finally {
      await server.close();
    }
  });

  it('answers what is still parked with empty items when it closes', async () => {
    let parked!: () => void;
    const isParked = new Promise<void>((resolve) => {
      parked = resolve;
    });
    const server = await startBRef({ onPark: () => parked() });
    const subscribe = request(`${server.url}/topics/default-cache/t`);
    await isParked;
    await server.close();
    const answer = await subscribe;
    expect(await answer.body.json()).toEqual({ items: [] });
  });
});

describe('a baseline in its own process', () => {
  it('starts, reports requests in flight and memory over IPC, and stops', async () => {
    const server = await ServerProcess.start({ kind: 'b-ref' });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await server.inflight()).toBe(0);
      const subscribe = request(`${server.url}/topics/default-cache/t`);
      expect(await server.waitInflight(1, 10_000)).toBe(1);
      const publish = await request(`${server.url}/topics/default-cache/t`, {
        method: 'POST',
        headers: textHeaders,
        body: 'x',
      });
      expect(publish.statusCode).toBe(204);
      expect(await (await subscribe).body.json()).toMatchObject({
        items: [{ item: { value: { text: 'x' } } }],
      });
      const memory = await server.memory();
      expect(memory.gcExposed).toBe(true);
      expect(memory.heapUsed).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  });
});

describe('a server started without request probes', () => {
  it('serves, and refuses the probes (every request would pay for them)', async () => {
    const server = await ServerProcess.start({ kind: 'b-fastify', probes: false });
    try {
      const publish = await request(`${server.url}/topics/default-cache/t`, {
        method: 'POST',
        headers: textHeaders,
        body: 'x',
      });
      expect(publish.statusCode).toBe(204);
      await expect(server.inflight()).rejects.toThrow(/without request probes/);
      await expect(server.timePosts()).rejects.toThrow(/without request probes/);
    } finally {
      await server.stop();
    }
  });
});
