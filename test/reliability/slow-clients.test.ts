import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { Pool } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { testEmulator, until, type TestEmulator } from '../helpers/emulator.js';
import { mb, reportFigure } from './figures.js';
import { parseResponse, requestHead } from './raw-http.js';

// Slow clients cannot stall the others: a reader that never reads, bodies and headers
// trickled a byte at a time. And the server's own timeouts leave long-polls alone.

const C = 'default-cache';
let t: TestEmulator | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await t?.close();
  t = undefined;
});

function open(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  sockets.push(socket);
  return once(socket, 'connect').then(() => socket);
}

/** `rounds` publish-then-read round trips on a topic of their own, one after the other. */
async function othersRoundTrips(url: string, key: string, topic: string, rounds: number): Promise<number> {
  const pool = new Pool(url, { connections: 2 });
  try {
    let done = 0;
    for (let i = 1; i <= rounds; i++) {
      const published = await pool.request({
        path: `/topics/${C}/${topic}`,
        method: 'POST',
        headers: { authorization: key, 'content-type': 'text/plain' },
        body: `m${i}`,
      });
      await published.body.dump();
      const read = await pool.request({
        path: `/topics/${C}/${topic}?sequence_number=${i}`,
        method: 'GET',
        headers: { authorization: key },
      });
      const body = (await read.body.json()) as { items: { item: { topic_sequence_number: number } }[] };
      if (published.statusCode === 204 && read.statusCode === 200 && body.items[0]?.item.topic_sequence_number === i)
        done += 1;
    }
    return done;
  } finally {
    await pool.close();
  }
}

describe('slow clients cannot stall the others', () => {
  it('readers that never read their answers: others go on', async () => {
    t = await testEmulator({ payloadLimitBytes: 4096, retention: 100, maxBatch: 100 });
    const port = Number(new URL(t.url).port);
    for (let i = 0; i < 100; i++) expect((await t.publish(C, 'big', 'x'.repeat(4000))).status).toBe(204);
    const answerBytes = (await t.subscribe(C, 'big', { seq: 1 })).text.length;
    const heapBefore = process.memoryUsage().heapUsed;
    // Four connections, each with ten pipelined reads of the whole topic, never reading a byte back.
    const readers = 4;
    const pipelined = 10;
    const request = requestHead('GET', `/topics/${C}/big?sequence_number=1`, [
      ['Host', 'localhost'],
      ['Authorization', t.key],
    ]);
    for (let r = 0; r < readers; r++) {
      const socket = await open(port);
      socket.pause();
      socket.write(request.repeat(pipelined));
    }
    const completed = await othersRoundTrips(t.url, t.key, 'others', 200);
    const heapAfter = process.memoryUsage().heapUsed;
    // Not bounded yet: the answers to pipelined requests that arrived together are all built and
    // held until read (findings.test.ts pins it; the fix is in the reliability notes).
    reportFigure(
      'slow-readers',
      `${readers} connections asked for ${readers * pipelined} answers of ${mb(answerBytes)} and read none; meanwhile ${completed}/200 round trips of others completed; heap ${mb(heapBefore)} -> ${mb(heapAfter)}`,
      { readers, pipelined, answerBytes, completed, heapBefore, heapAfter },
    );
    expect(completed).toBe(200);
  });

  it('bodies and headers trickled a byte at a time: others go on, and the trickled publishes land', async () => {
    t = await testEmulator({ payloadLimitBytes: 10_000 });
    const port = Number(new URL(t.url).port);
    const body = Buffer.from('b'.repeat(8000));
    const head = requestHead('POST', `/topics/${C}/trickled`, [
      ['Host', 'localhost'],
      ['Authorization', t.key],
      ['Content-Type', 'text/plain'],
      ['Content-Length', String(body.length)],
    ]);
    const bodyTricklers = await Promise.all(Array.from({ length: 20 }, () => open(port)));
    const headerTricklers = await Promise.all(Array.from({ length: 20 }, () => open(port)));
    let sent = 0;
    // The load's shape, not a synchronisation: one more byte from each slow client every few ms.
    const trickle = setInterval(() => {
      for (const s of bodyTricklers) s.write(sent === 0 ? head : body.subarray(sent - 1, sent));
      for (const s of headerTricklers) s.write(head.slice(sent, sent + 1));
      sent += 1;
    }, 2);
    try {
      const completed = await othersRoundTrips(t.url, t.key, 'others', 200);
      clearInterval(trickle);
      const bytesTrickled = sent;
      expect(completed).toBe(200);
      expect(bytesTrickled).toBeLessThan(body.length); // the others finished while the bodies were still arriving
      const answers = bodyTricklers.map((s) => {
        let data = Buffer.alloc(0);
        return new Promise<number | undefined>((resolve) => {
          s.on('data', (chunk) => {
            data = Buffer.concat([data, chunk]);
            const parsed = parseResponse(data, false);
            if (parsed) resolve(parsed.response.status);
          });
          s.on('close', () => resolve(undefined));
        });
      });
      for (const s of bodyTricklers) s.write(body.subarray(Math.max(0, sent - 1)));
      const statuses = await Promise.all(answers);
      await until(
        () => (t!.emulator.context.store.content(C, 'trickled')?.messages.length ?? 0) === 20,
        'the trickled messages to land',
      );
      reportFigure(
        'trickle',
        `20 bodies and 20 header blocks trickled a byte every 2 ms: ${completed}/200 round trips of others completed after ${bytesTrickled} bytes each; the 20 trickled publishes then answered ${[...new Set(statuses)].join(', ')}`,
        {
          tricklers: 40,
          bytesTrickled,
          completed,
          trickledStatuses: statuses,
        },
      );
      expect(statuses).toEqual(Array(20).fill(204));
    } finally {
      clearInterval(trickle);
    }
  });
});

describe("the server's timeouts leave long-polls alone", () => {
  it('a long-poll waits its whole timeout and the connection serves the next request', async () => {
    t = await testEmulator({ longPollTimeoutMs: 1500 });
    const server = t.emulator.app.server;
    const timeouts = {
      requestTimeout: server.requestTimeout,
      headersTimeout: server.headersTimeout,
      keepAliveTimeout: server.keepAliveTimeout,
      socketTimeout: server.timeout,
    };
    // Only an idle-socket timeout could cut a long-poll (Node's requestTimeout and
    // headersTimeout cover receiving the request, not waiting for its answer).
    expect(timeouts.socketTimeout === 0 || timeouts.socketTimeout > t.emulator.settings.longPollTimeoutMs).toBe(true);
    expect(timeouts.keepAliveTimeout).toBeGreaterThan(0);
    let connections = 0;
    server.on('connection', () => (connections += 1));
    const pool = new Pool(t.url, { connections: 1 });
    try {
      const started = Date.now();
      const waited = await pool.request({
        path: `/topics/${C}/quiet`,
        method: 'GET',
        headers: { authorization: t.key },
      });
      expect([waited.statusCode, await waited.body.text()]).toEqual([200, '{"items":[]}']);
      const waitedMs = Date.now() - started;
      const next = await pool.request({ path: '/_emulator/health', method: 'GET' });
      expect(next.statusCode).toBe(200);
      await next.body.dump();
      expect(connections).toBe(1);
      reportFigure(
        'timeouts',
        `server timeouts ${JSON.stringify(timeouts)}; a ${t.emulator.settings.longPollTimeoutMs} ms long-poll waited ${waitedMs} ms and its connection served the next request`,
        { ...timeouts, waitedMs },
      );
      expect(waitedMs).toBeGreaterThanOrEqual(t.emulator.settings.longPollTimeoutMs - 50);
    } finally {
      await pool.close();
    }
  });
});

describe('the request timeout', () => {
  it('answers 408 request_timeout to a request still arriving after it, and never cuts a long-poll that waits longer', async () => {
    t = await testEmulator({ requestTimeoutMs: 400, longPollTimeoutMs: 1200 });
    expect(t.emulator.app.server.requestTimeout).toBe(400);
    const port = Number(new URL(t.url).port);
    // A publish whose body never completes: its headers promise 10 bytes, 2 arrive.
    const slow = await open(port);
    let answer = Buffer.alloc(0);
    slow.on('data', (chunk: Buffer) => (answer = Buffer.concat([answer, chunk])));
    const closed = once(slow, 'close');
    const started = Date.now();
    slow.write(
      `${requestHead('POST', `/topics/${C}/slow`, [
        ['Host', 'localhost'],
        ['Authorization', t.key],
        ['Content-Type', 'text/plain'],
        ['Content-Length', '10'],
      ])}ab`,
    );
    // Meanwhile a long-poll waits three times the request timeout, and is answered normally.
    const pool = new Pool(t.url, { connections: 1 });
    try {
      const waited = await pool.request({
        path: `/topics/${C}/quiet`,
        method: 'GET',
        headers: { authorization: t.key },
      });
      expect([waited.statusCode, await waited.body.text()]).toEqual([200, '{"items":[]}']);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1150);
    } finally {
      await pool.close();
    }
    await closed; // the emulator closes the connection after its answer
    const parsed = parseResponse(answer, true);
    expect(parsed?.response.status).toBe(408);
    expect(JSON.parse(parsed!.response.body.toString())).toMatchObject({ code: 'request_timeout' });
    expect(t.emulator.state().topics.find((topic) => topic.topic === 'slow')).toBeUndefined();
  });
});
