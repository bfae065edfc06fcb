import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { seededRandom } from '../../emulator/faults/random.js';

// A TCP proxy on loopback that holds every chunk, each way, for a random 20–150 ms before passing
// it on (in order: a chunk never overtakes the one before it): a slow, jittery network between a
// client and a server on this machine. Seeded, so a failing run can be run again.

export interface LatencyProxy {
  url: string;
  close(): Promise<void>;
}

/** Passes `from`'s chunks to `to`, each after its delay, never before the chunk before it. */
function delayed(from: Socket, to: Socket, delayMs: () => number): void {
  let due = 0;
  let pending = 0;
  let ended = false;
  from.on('data', (chunk: Buffer) => {
    due = Math.max(due, Date.now() + delayMs());
    pending += 1;
    setTimeout(() => {
      pending -= 1;
      if (!to.destroyed) to.write(chunk);
      if (ended && pending === 0) to.end();
    }, due - Date.now());
  });
  // An end or an abrupt close is passed on after the chunks before it.
  const finish = () => {
    if (ended) return;
    ended = true;
    if (pending === 0) to.end();
  };
  from.on('end', finish);
  from.on('close', finish);
}

export async function startLatencyProxy(
  upstream: string,
  options: { minMs?: number; maxMs?: number; seed?: number } = {},
): Promise<LatencyProxy> {
  const { hostname, port } = new URL(upstream);
  const min = options.minMs ?? 20;
  const max = options.maxMs ?? 150;
  const next = seededRandom(options.seed ?? 1);
  const delayMs = () => min + next() * (max - min);
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const server = connect(Number(port), hostname);
    for (const socket of [client, server]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        server.destroy();
      });
    }
    delayed(client, server, delayMs);
    delayed(server, client, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
