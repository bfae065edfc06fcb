import { Client } from 'undici';
import { pause } from '../clock.js';
import { serveParent } from '../ipc.js';
import { runSubscriber } from './subscriber.js';
import type { Delivery, ParkRequest, SwarmStats } from './swarm-spec.js';

// The subscriber swarm: thousands of long-polls held open from their own process, so that their
// responses do not compete with the harness's publisher or with the server for one event loop.
// Each delivery is stamped on the machine-wide monotonic clock; the harness compares the stamps
// with the moment it published.

let clients: Client[] = [];
let closing = false;
const deliveries = new Map<string, Delivery>();
const deliveryWaiters = new Map<string, { count: number; wake(): void }>();
const repollGates = new Map<string, { count: number; open: Promise<void>; release(): void }>();
const stats: SwarmStats = { subscribers: 0, delivered: 0, empty: 0, errors: 0, statuses: {}, firstErrors: [] };

function recordError(message: string): void {
  stats.errors++;
  if (stats.firstErrors.length < 5) stats.firstErrors.push(message);
}

function recordDelivery(text: string, at: number): void {
  stats.delivered++;
  const seen = deliveries.get(text);
  if (seen === undefined) deliveries.set(text, { count: 1, firstAt: at, lastAt: at });
  else {
    seen.count++;
    seen.lastAt = at;
  }
  const count = deliveries.get(text)?.count ?? 0;
  const waiter = deliveryWaiters.get(text);
  if (waiter !== undefined && count >= waiter.count) waiter.wake();
  const gate = repollGates.get(text);
  if (gate !== undefined && count >= gate.count) gate.release();
}

/** Resolves once `count` deliveries of `text` have been read. */
function gateFor(text: string, count: number): Promise<void> {
  let gate = repollGates.get(text);
  if (gate === undefined) {
    let release = (): void => {};
    const open = new Promise<void>((resolve) => {
      release = resolve;
    });
    gate = { count, open, release };
    repollGates.set(text, gate);
  }
  if ((deliveries.get(text)?.count ?? 0) >= count) gate.release();
  return gate.open;
}

let connections = 0;

async function park(request: ParkRequest): Promise<{ subscribers: number; connected: number }> {
  closing = false;
  const before = connections;
  const batch = request.connectBatch ?? 500;
  for (let i = 0; i < request.count; i++) {
    // One client (one connection) per subscriber: a Pool of thousands scans its clients for a
    // free one on every request, and the swarm, not the server, would become what is measured.
    // Past ~20,000 connections from one source address the ephemeral ports run short, so larger
    // swarms spread over more loopback source addresses (the target stays 127.0.0.1).
    const source = Math.floor(i / 20_000);
    const client = new Client(request.url, {
      pipelining: 1,
      headersTimeout: 0,
      bodyTimeout: 0,
      keepAliveTimeout: 600_000,
      ...(request.count > 20_000 ? { connect: { localAddress: `127.0.0.${source + 2}` } } : {}),
    });
    client.on('connect', () => {
      connections++;
    });
    clients.push(client);
    void runSubscriber(client, {
      cacheName: request.cacheName,
      topicName: request.topics[i % request.topics.length] as string,
      headers: request.headers,
      follow: request.follow,
      isClosing: () => closing,
      onTexts: (texts, at) => {
        if (texts.length === 0) stats.empty++;
        for (const text of texts) recordDelivery(text, at);
      },
      ...(request.repollAfter !== undefined
        ? {
            beforeNextPoll: (texts: string[]) =>
              Promise.all(texts.map((text) => gateFor(text, request.repollAfter as number))).then(() => undefined),
          }
        : {}),
      onStatus: (status) => {
        stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
      },
      onError: recordError,
    });
    stats.subscribers++;
    // Open connections in batches: a burst of thousands of SYNs overflows the listen backlog and
    // costs a second-long retransmit, which would be measured as the server's.
    if ((i + 1) % batch === 0 || i + 1 === request.count) {
      const deadline = Date.now() + 30_000;
      while (connections - before < i + 1) {
        if (Date.now() > deadline) throw new Error(`only ${connections - before} of ${i + 1} connections opened`);
        if (stats.errors > 0) throw new Error(`subscribers failed: ${stats.firstErrors.join('; ')}`);
        await pause(1);
      }
    }
  }
  return { subscribers: request.count, connected: connections - before };
}

async function dropAll(): Promise<void> {
  closing = true;
  const old = clients;
  clients = [];
  connections = 0;
  await Promise.all(old.map((client) => client.destroy()));
}

serveParent({
  park,
  /** Resolves once `count` subscribers have received `text`, or after the timeout with what came. */
  waitDelivered: (args: { text: string; count: number; timeoutMs: number }) =>
    new Promise<Delivery & { complete: boolean }>((resolve) => {
      const finish = (complete: boolean): void => {
        clearTimeout(timer);
        deliveryWaiters.delete(args.text);
        const seen = deliveries.get(args.text) ?? { count: 0, firstAt: 0, lastAt: 0 };
        resolve({ ...seen, complete });
      };
      const timer = setTimeout(() => finish(false), args.timeoutMs);
      deliveryWaiters.set(args.text, { count: args.count, wake: () => finish(true) });
      if ((deliveries.get(args.text)?.count ?? 0) >= args.count) finish(true);
    }),
  stats: () => stats,
  /** Drop every connection and forget everything: the next park starts clean. */
  reset: async () => {
    await dropAll();
    deliveries.clear();
    for (const gate of repollGates.values()) gate.release();
    repollGates.clear();
    Object.assign(stats, { subscribers: 0, delivered: 0, empty: 0, errors: 0, statuses: {}, firstErrors: [] });
    return true;
  },
  close: async () => {
    await dropAll();
    setImmediate(() => process.exit(0));
    return true;
  },
});
process.send?.({ event: 'ready', data: true });
