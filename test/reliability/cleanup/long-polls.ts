import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { parseResponse, requestHead, type RawResponse } from '../raw-http.js';

// Many long-polls at once, each on its own bare socket (thousands of them cost the client
// little), so a test can leave them waiting, vanish from them, or collect their answers.

export interface LongPoll {
  socket: Socket;
  /** The answer, or undefined when the connection ended without one. */
  answer: Promise<RawResponse | undefined>;
}

function longPoll(port: number, target: string, key: string): LongPoll {
  const socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  let received = Buffer.alloc(0);
  const answer = new Promise<RawResponse | undefined>((resolve) => {
    const settle = (closed: boolean) => {
      const parsed = parseResponse(received, closed);
      if (parsed) resolve(parsed.response);
      else if (closed) resolve(undefined);
    };
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      settle(false);
    });
    socket.on('close', () => settle(true));
    socket.on('error', () => settle(true));
  });
  socket.write(
    requestHead('GET', target, [
      ['Host', '127.0.0.1'],
      ['Authorization', key],
    ]),
  );
  return { socket, answer };
}

/**
 * Opens `count` long-polls on `topics` (spread evenly), `wave` connections at a time, waiting
 * after each wave until the emulator counts them all as waiting (`waiting()` reads it).
 */
export async function openLongPolls(
  port: number,
  key: string,
  count: number,
  topics: string[],
  waiting: () => Promise<number>,
  wave = 250,
): Promise<LongPoll[]> {
  const base = await waiting();
  const polls: LongPoll[] = [];
  while (polls.length < count) {
    const size = Math.min(wave, count - polls.length);
    const batch = Array.from({ length: size }, (_, i) =>
      longPoll(port, `/topics/default-cache/${topics[(polls.length + i) % topics.length]}`, key),
    );
    await Promise.all(batch.map((p) => once(p.socket, 'connect')));
    polls.push(...batch);
    const deadline = Date.now() + 20_000;
    while ((await waiting()) < base + polls.length) {
      if (Date.now() > deadline)
        throw new Error(`only ${(await waiting()) - base} of ${polls.length} long-polls are waiting`);
      await new Promise((resolve) => setImmediate(resolve)); // let the sockets' I/O run between checks
    }
  }
  return polls;
}
