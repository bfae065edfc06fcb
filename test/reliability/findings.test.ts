import { connect } from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorRegistry, isErrorCode } from '../../emulator/errors.js';
import { testEmulator, until, type TestEmulator } from '../helpers/emulator.js';
import { PIPELINE_DEPTH } from '../../emulator/http/connection-guard.js';
import { parseResponse, rawExchange, requestHead, type RawOutcome, type RawResponse } from './raw-http.js';

// Bugs the reliability runs found (most by the fuzz run), each fixed, each with its regression
// test here. A bug found and not fixed yet gets a test that states the right behaviour, marked
// `it.fails` (it passes while the bug is there); when its fix lands, the test fails: move it to
// the fixed ones (and drop any matching entry of `knownDeviations` in fuzz/verdict.ts).

let t: TestEmulator;
let port: number;
beforeAll(async () => {
  t = await testEmulator({ longPollTimeoutMs: 1000 });
  port = Number(new URL(t.url).port);
  await t.publish('default-cache', 'known', 'one');
});
afterAll(() => t.close());

/** The answer is the registry's JSON error body, with the registry's status for its code. */
function expectRegistryError(outcome: RawOutcome, code: string): void {
  expect(outcome.ending).toBe('answered');
  const { status, headers, body } = outcome.response!;
  expect(headers['content-type'] ?? '').toMatch(/^application\/json/);
  const parsed = JSON.parse(body.toString()) as { code: string; message: string };
  expect(Object.keys(parsed).sort()).toEqual(['code', 'message']);
  expect(isErrorCode(parsed.code)).toBe(true);
  expect(parsed.code).toBe(code);
  expect(status).toBe(errorRegistry[parsed.code as keyof typeof errorRegistry].status);
}

const head = (method: string, target: string, headers: [string, string][] = []) =>
  requestHead(method, target, [['Host', 'localhost'], ['Connection', 'close'], ...headers]);

describe('found and fixed', () => {
  it('a malformed percent-escape in the path answers invalid_parameter from the registry (not FST_ERR_BAD_URL)', async () => {
    expectRegistryError(
      await rawExchange(port, { head: head('GET', '/topics/%zz/t', [['Authorization', t.key]]) }),
      'invalid_parameter',
    );
  });

  it('a path parameter over the router limit answers invalid_parameter from the registry (not FST_ERR_MAX_PARAM_LENGTH)', async () => {
    expectRegistryError(
      await rawExchange(port, {
        head: head('GET', `/topics/default-cache/${'x'.repeat(3000)}`, [['Authorization', t.key]]),
      }),
      'invalid_parameter',
    );
  });
  it('an OPTIONS that is not a CORS preflight gets a JSON answer (not "Invalid Preflight Request" as text/plain)', async () => {
    const outcome = await rawExchange(port, { head: head('OPTIONS', '/topics/default-cache/known') });
    expect(outcome.response!.status).toBeLessThan(400);
  });

  it('an Expect other than 100-continue gets a JSON answer (not a bare 417 from Node)', async () => {
    const outcome = await rawExchange(port, { head: head('GET', '/_emulator/health', [['Expect', 'teapot']]) });
    expect(outcome.response!.status).toBe(200);
  });

  it('a CONNECT is answered (not dropped)', async () => {
    expectRegistryError(await rawExchange(port, { head: head('CONNECT', 'example.com:443') }), 'method_not_allowed');
  });

  it('sequence_number=Infinity is refused like any number over 2^53-1 (not a discontinuity with null)', async () => {
    for (const query of [
      'sequence_number=Infinity',
      'sequence_number=1e400',
      'sequence_page=Infinity',
      'sequence_page=-1e400',
    ]) {
      const reply = await t.subscribe('default-cache', 'known', {}, { query });
      expect([reply.status, reply.json.code], query).toEqual([400, 'invalid_parameter']);
    }
  });

  it('the clock cannot be moved so far that a time it shows or schedules would pass the last Date (500s before)', async () => {
    const local = await testEmulator();
    try {
      const post = async (path: string, body: unknown) => {
        const answer = await fetch(`${local.url}/_emulator${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return [answer.status, ((await answer.json()) as { code?: string }).code];
      };
      const last = 8_640_000_000_000_000 - 2 * 31_536_000_000 - 90_000_000;
      expect(await post('/clock', { mode: 'virtual', setTo: 8_640_000_000_000_000 })).toEqual([400, 'invalid_body']);
      expect(await post('/clock', { mode: 'virtual', setTo: last, advanceMs: 1 })).toEqual([400, 'invalid_body']);
      // As far as it goes, everything that schedules from the clock still works, and shows.
      expect((await post('/clock', { mode: 'virtual', setTo: last }))[0]).toBe(200);
      expect(() => local.emulator.advanceClock(1)).toThrow(/cannot pass/);
      expect(
        (
          await post('/tokens', {
            permissions: [{ role: 'publishsubscribe', cache: '*' }],
            ttlSeconds: 90_000,
            tokenId: 'late',
          })
        )[0],
      ).toBe(201);
      expect((await post('/tokens/late/expire', { afterMs: 31_536_000_000 }))[0]).toBe(200);
      expect(
        (await post('/faults', { status: 500, startAfterMs: 31_536_000_000, durationMs: 31_536_000_000 }))[0],
      ).toBe(201);
      expect((await post('/topics/default-cache/t/reset', { afterMs: 31_536_000_000 }))[0]).toBe(202);
      for (const path of ['/state', '/clock', '/limits', '/faults'])
        expect((await fetch(`${local.url}/_emulator${path}`)).status, path).toBe(200);
    } finally {
      await local.close();
    }
  });
});

describe('a request without Host', () => {
  it('an HTTP/1.1 request without Host gets a JSON answer (not a bare 400 from Node)', async () => {
    expectRegistryError(
      await rawExchange(port, { head: 'GET /nowhere HTTP/1.1\r\nConnection: close\r\n\r\n' }),
      'invalid_request',
    );
    expectRegistryError(
      await rawExchange(port, {
        head: 'POST /topics/default-cache/t HTTP/1.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
      }),
      'invalid_request',
    );
  });
});

describe('pipelined requests', () => {
  /** Writes `payload` on a fresh connection and reads every response until the server closes it. */
  async function pipelined(payload: string): Promise<{ responses: RawResponse[]; closedByServer: boolean }> {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let input = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => (input = Buffer.concat([input, chunk])));
    socket.write(payload);
    const closedByServer = await Promise.race([
      once(socket, 'end').then(() => true),
      once(socket, 'close').then(() => true),
      new Promise<boolean>((resolve) => setTimeout(resolve, 10_000, false)),
    ]);
    socket.destroy();
    const responses: RawResponse[] = [];
    for (let parsed = parseResponse(input, true); parsed; parsed = parseResponse(input, true)) {
      responses.push(parsed.response);
      input = input.subarray(parsed.used);
      if (input.length === 0) break;
    }
    return { responses, closedByServer };
  }

  it(`answers at most ${PIPELINE_DEPTH} unanswered pipelined requests per connection, then 429 limit_exceeded and closes`, async () => {
    const health = requestHead('GET', '/_emulator/health', [['Host', 'localhost']]);
    const { responses, closedByServer } = await pipelined(health.repeat(PIPELINE_DEPTH + 10));
    expect(closedByServer).toBe(true);
    expect(responses.map((r) => r.status)).toEqual([...Array<number>(PIPELINE_DEPTH).fill(200), 429]);
    const refused = responses.at(-1)!;
    expect(refused.headers.connection).toBe('close');
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused.body.toString())).toMatchObject({ code: 'limit_exceeded' });
  });

  it('pipelined long-polls from a client that leaves are let go with its connection, not held until their timeout', async () => {
    // No timeout: only the client's leaving can end these waits. Node drops the subscribes queued
    // behind the first without a 'close' on their responses; they used to wait until their timeout.
    const patient = await testEmulator({ longPollTimeoutMs: 0 });
    const gone: string[] = [];
    patient.emulator.context.events.on(
      (event) => {
        if (event.kind === 'request' && event.record.clientGone) gone.push(event.record.operation ?? '');
      },
      ['request'],
    );
    try {
      const waiting = () => patient.emulator.context.waiting.size;
      const socket = connect(Number(new URL(patient.url).port), '127.0.0.1');
      await once(socket, 'connect');
      const poll = requestHead('GET', '/topics/default-cache/quiet?sequence_number=5', [
        ['Host', 'localhost'],
        ['Authorization', patient.key],
      ]);
      socket.write(poll.repeat(PIPELINE_DEPTH));
      await until(() => waiting() === PIPELINE_DEPTH, `${PIPELINE_DEPTH} pipelined subscribes to wait`);
      socket.destroy();
      await until(() => waiting() === 0, 'every subscribe of the closed connection to be let go');
      // Each is in the journal as a client that left, the ones Node dropped too.
      await until(() => gone.length >= PIPELINE_DEPTH, `${PIPELINE_DEPTH} records of a client gone`);
      // The emulator still answers a new subscriber on the same topic.
      const later = patient.subscribe('default-cache', 'quiet', { seq: 1 });
      await until(() => waiting() === 1, 'a new subscriber to wait');
      expect((await patient.publish('default-cache', 'quiet', 'after')).status).toBe(204);
      expect((await later).status).toBe(200);
      // Once each, however the Node version closes them: no second record came meanwhile.
      expect(gone).toEqual(Array<string>(PIPELINE_DEPTH).fill('subscribe'));
    } finally {
      await patient.close();
    }
  });

  it(`a connection used one request at a time is never limited (${PIPELINE_DEPTH * 4} requests)`, async () => {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let input = Buffer.alloc(0);
    try {
      for (let i = 0; i < PIPELINE_DEPTH * 4; i++) {
        socket.write(
          requestHead('GET', '/topics/default-cache/known?sequence_number=1', [
            ['Host', 'localhost'],
            ['Authorization', t.key],
          ]),
        );
        let parsed = parseResponse(input, false);
        while (!parsed) {
          const [chunk] = (await once(socket, 'data')) as [Buffer];
          input = Buffer.concat([input, chunk]);
          parsed = parseResponse(input, false);
        }
        expect(parsed.response.status, `request ${i + 1}`).toBe(200);
        input = input.subarray(parsed.used);
      }
    } finally {
      socket.destroy();
    }
  });

  it('answers to pipelined requests a client does not read are not all built and held in memory', async () => {
    const local = await testEmulator({ retention: 100, maxBatch: 100 });
    for (let i = 0; i < 100; i++) await local.publish('default-cache', 'big', 'x'.repeat(4000));
    const socket = connect(Number(new URL(local.url).port), '127.0.0.1');
    try {
      await once(socket, 'connect');
      socket.pause();
      let parsed = 0;
      local.emulator.app.server.on('request', () => (parsed += 1));
      const before = process.memoryUsage().heapUsed;
      // 100 reads of a 0.4 MB answer in one write: 40 MB if every answer is built at once.
      socket.write(
        requestHead('GET', '/topics/default-cache/big?sequence_number=1', [
          ['Host', 'localhost'],
          ['Authorization', local.key],
        ]).repeat(100),
      );
      await until(() => parsed >= 100, 'the pipelined reads to be parsed');
      await local.publish('default-cache', 'other', 'a round trip after the reads were parsed');
      // Half of what building every answer would hold: heapUsed also counts garbage not yet
      // collected (no --expose-gc here), which under a loaded CI machine reached 18 MB.
      expect(process.memoryUsage().heapUsed - before).toBeLessThan(20 * 1024 * 1024);
    } finally {
      socket.destroy();
      await local.close();
    }
  });
});
