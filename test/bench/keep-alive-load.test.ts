import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeepAliveLoad, postRequest, takeAnswers } from '../../bench/load/keep-alive-load.js';
import { cpuPerRequestUs, cpuShareOf, rateOf } from '../../bench/figures/interleaved.js';

describe('takeAnswers', () => {
  it('takes every complete answer, by Content-Length, chunks or none, and leaves the rest', () => {
    const text =
      'HTTP/1.1 204 No Content\r\nvary: Origin\r\n\r\n' +
      'HTTP/1.1 401 Unauthorized\r\nContent-Length: 5\r\n\r\n{"a"}' +
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n' +
      'HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n01234';
    const { statuses, rest } = takeAnswers(text);
    expect(statuses).toEqual([204, 401, 200]);
    expect(rest).toBe('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n01234');
    expect(takeAnswers(rest + '56789')).toEqual({ statuses: [200], rest: '' });
  });

  it('waits for the rest of a head or a chunked body', () => {
    expect(takeAnswers('HTTP/1.1 204 No Con')).toEqual({ statuses: [], rest: 'HTTP/1.1 204 No Con' });
    const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n';
    expect(takeAnswers(chunked).statuses).toEqual([]);
  });

  it('refuses what is not an HTTP answer', () => {
    expect(() => takeAnswers('garbage\r\n\r\n')).toThrow(/not an HTTP answer/);
  });
});

describe('postRequest', () => {
  it('is a POST with Host, the headers and the body length in bytes', () => {
    const request = postRequest('http://127.0.0.1:4000', '/topics/c/t', { authorization: 'k' }, 'héllo').toString();
    expect(request).toBe(
      'POST /topics/c/t HTTP/1.1\r\nHost: 127.0.0.1:4000\r\nauthorization: k\r\ncontent-length: 6\r\n\r\nhéllo',
    );
  });
});

describe('KeepAliveLoad', () => {
  let server: Server | undefined;
  let load: KeepAliveLoad | undefined;
  afterEach(async () => {
    load?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  const sockets: Socket[] = [];
  async function serve(status: (n: number) => number): Promise<{ url: string; received: () => number }> {
    let received = 0;
    sockets.length = 0;
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.statusCode = status(++received);
        response.end(response.statusCode === 204 ? undefined : '{"code":"no"}');
      });
    });
    server.on('connection', (socket: Socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return { url: `http://127.0.0.1:${port}`, received: () => received };
  }

  it('keeps one request in flight per connection, stops with every answer in, and starts again', async () => {
    const target = await serve((n) => (n % 10 === 0 ? 429 : 204));
    load = await KeepAliveLoad.open(target.url, postRequest(target.url, '/t', {}, 'x'), 4);
    load.start();
    await vi.waitFor(() => expect(target.received()).toBeGreaterThanOrEqual(40), { timeout: 5000, interval: 1 });
    await load.stop();
    const first = { ...load.counts };
    expect(first.answered + first.refused).toBe(target.received());
    expect(first.refused).toBe(Math.floor(target.received() / 10));
    expect(first.errors).toBe(0);

    load.start();
    await vi.waitFor(() => expect(target.received()).toBeGreaterThanOrEqual(first.answered + first.refused + 20), {
      timeout: 5000,
      interval: 1,
    });
    await load.stop();
    expect(load.counts.answered + load.counts.refused).toBe(target.received());
    expect(load.counts.answered).toBeGreaterThan(first.answered);
  });

  it('fails to open when the server cannot be reached, with the reason', async () => {
    const target = await serve(() => 204);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    await expect(KeepAliveLoad.open(target.url, postRequest(target.url, '/t', {}, 'x'), 3)).rejects.toThrow(
      /ECONNREFUSED/,
    );
  });

  it('counts a connection the server drops, and does not wait for its request', async () => {
    const target = await serve(() => 204);
    load = await KeepAliveLoad.open(target.url, postRequest(target.url, '/t', {}, 'x'), 2);
    await vi.waitFor(() => expect(sockets).toHaveLength(2), { timeout: 5000, interval: 1 });
    load.start();
    sockets[0]!.destroy();
    await vi.waitFor(() => expect(load!.counts.errors).toBe(1), { timeout: 5000, interval: 1 });
    await load.stop(); // resolves: the dropped connection's request is not waited for
    // At most the one request of the dropped connection went unanswered.
    expect(load.counts.answered + load.counts.refused).toBeGreaterThanOrEqual(target.received() - 1);
    expect(load.counts.answered + load.counts.refused).toBeLessThanOrEqual(target.received());
  });
});

describe('rateOf, cpuPerRequestUs and cpuShareOf', () => {
  it('pool the rounds: requests over time, CPU over requests, CPU over time', () => {
    const rounds = [
      { requests: 3000, failures: 0, ms: 1000, cpuMs: 90 },
      { requests: 1000, failures: 0, ms: 1000, cpuMs: 30 },
    ];
    expect(rateOf(rounds)).toBe(2000);
    expect(cpuPerRequestUs(rounds)).toBe(30);
    expect(cpuShareOf(rounds)).toBeCloseTo(0.06);
    expect(rateOf([])).toBe(0);
    expect(cpuPerRequestUs([])).toBe(0);
    expect(cpuShareOf([])).toBe(0);
  });
});
