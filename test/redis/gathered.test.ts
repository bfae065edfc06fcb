import { describe, expect, it } from 'vitest';
import { localMatcher, REPLICA_ID_STRIDE } from '../../emulator/control/gather.js';
import type { JournalEntry, RequestList } from '../../emulator/index.js';
import { HEARTBEAT_TTL_MS } from '../../emulator/redis/liveness.js';
import '../../testing/vitest.js';
import { testEmulator, until, type TestEmulator } from '../helpers/emulator.js';
import { useFleet } from './fleet.js';

// Reads that cover every replica on one store: the journal's listing and count, the client
// findings (a client whose polls alternate between replicas is one client) and the waiting
// subscribers of GET /_emulator/state. A replica that cannot answer fails them loudly.

const fleet = useFleet();
const { running } = fleet;
let prefixes = 0;

async function pair(options: Record<string, unknown> = {}): Promise<[TestEmulator, TestEmulator, string]> {
  const prefix = `gathered-${++prefixes}:`;
  const start = async () => {
    const replica = await testEmulator({
      caches: ['cache'],
      store: fleet.redis().url,
      storePrefix: prefix,
      ...options,
    });
    running.push(replica);
    return replica;
  };
  return [await start(), await start(), prefix];
}

async function control(replica: { url: string }, path: string, body?: unknown) {
  const response = await fetch(`${replica.url}/_emulator${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

/** The state in the first message of the replica's event stream (GET /_emulator/events), which is then closed. */
async function helloOf(replica: { url: string }): Promise<unknown> {
  const stop = new AbortController();
  const response = await fetch(`${replica.url}/_emulator/events`, { signal: stop.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    for (;;) {
      const found = /event: hello\ndata: (.*)\n/.exec(text);
      if (found) return (JSON.parse(found[1]!) as { state: unknown }).state;
      const { value, done } = await reader.read();
      if (done) throw new Error(`the event stream ended before its hello: ${text}`);
      text += value;
    }
  } finally {
    stop.abort();
  }
}

/** Polls a gathered count until it reaches `n` (records are journalled once each answer has left). */
async function counted(replica: { url: string }, matcher: object, n: number): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const { status, json } = await control(replica, '/requests/count', matcher);
    expect(status).toBe(200);
    if (json.count === n) return;
    if (Date.now() > deadline) throw new Error(`count stayed ${json.count}, not ${n}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('reads that cover every replica', () => {
  it('requests spread over two replicas are listed and counted from either, ids unique, newest first', async () => {
    const [a, b] = await pair();
    for (const [replica, text] of [
      [a, 'a1'],
      [b, 'b1'],
      [a, 'a2'],
      [b, 'b2'],
      [a, 'a3'],
    ] as const)
      expect((await replica.publish('cache', 'spread', text)).status).toBe(204);
    await counted(a, { operation: 'publish' }, 5);
    for (const replica of [a, b]) {
      expect((await control(replica, '/requests/count', { operation: 'publish', topic: 'spread' })).json).toEqual({
        count: 5,
      });
      const listed = (await control(replica, '/requests?operation=publish')).json as RequestList;
      expect(listed.entries).toHaveLength(5);
      const at = listed.entries.map((e) => e.at);
      expect(at).toEqual([...at].sort((x, y) => y - x));
      expect(new Set(listed.entries.map((e) => e.id)).size).toBe(5);
      expect(listed.entries.filter((e) => e.replica === a.emulator.context.shared?.replicas!.id)).toHaveLength(3);
      expect(listed.entries.filter((e) => e.replica === b.emulator.context.shared?.replicas!.id)).toHaveLength(2);
      expect(listed.capacity).toBe(2 * a.emulator.settings.journalSize);
      const newest = (await control(replica, '/requests?operation=publish&limit=2')).json as RequestList;
      expect(newest.entries).toEqual(listed.entries.slice(0, 2));
    }
    // The same through the in-process methods.
    expect(await b.emulator.countRequests({ operation: 'publish' })).toEqual({ count: 5 });
    expect((await a.emulator.requests({ operation: 'publish', limit: 10 })).entries).toHaveLength(5);
    // afterId reads what is new in one replica's entries (their ids increase within it).
    const bEntries = (await b.emulator.requests({ operation: 'publish' })).entries.filter(
      (e) => e.replica === b.emulator.context.shared?.replicas!.id,
    );
    const afterFirstOfB = await a.emulator.requests({ operation: 'publish', afterId: bEntries.at(-1)!.id });
    expect(afterFirstOfB.entries.filter((e) => e.replica === bEntries[0]!.replica)).toEqual([bEntries[0]]);
  });

  it('a reset on one replica empties the journal of every replica', async () => {
    const [a, b] = await pair();
    expect((await a.publish('cache', 'reset', 'x')).status).toBe(204);
    expect((await b.publish('cache', 'reset', 'y')).status).toBe(204);
    await counted(b, { plane: 'service' }, 2);
    a.emulator.reset();
    await counted(b, { plane: 'service' }, 0);
    await counted(a, { plane: 'service' }, 0);
  });

  it('a client polling alternately through two replicas is judged as one client', async () => {
    const [a, b] = await pair({ longPollTimeoutMs: 1000 });
    expect((await a.publish('cache', 'alternate', 'm1')).status).toBe(204);
    const page = a.emulator.context.store.position('cache', 'alternate')!.page;
    await until(() => b.emulator.context.store.position('cache', 'alternate')?.next === 2, 'b to hold m1');
    // On a: the item. On b: an empty answer to the next cursor. Then m2 is published, and on a
    // again a first request, which waits for m3: m2 is lost (resume.after-empty spans the replicas).
    expect((await a.subscribe('cache', 'alternate', { seq: 1, page })).json.items).toHaveLength(1);
    expect((await b.subscribe('cache', 'alternate', { seq: 2, page })).json).toEqual({ items: [] });
    expect((await b.publish('cache', 'alternate', 'm2')).status).toBe(204);
    await until(() => a.emulator.context.store.position('cache', 'alternate')?.next === 3, 'a to hold m2');
    const first = a.subscribe('cache', 'alternate');
    await until(() => a.emulator.state().waitingSubscribers.length === 1, 'the first request to wait on a');
    expect((await b.publish('cache', 'alternate', 'm3')).status).toBe(204);
    expect((await first).json.items.map((e: { item: { value: { text: string } } }) => e.item.value.text)).toEqual([
      'm3',
    ]);
    await counted(b, { operation: 'subscribe' }, 3);
    for (const replica of [a, b]) {
      const { status, json } = await control(replica, '/clients');
      expect(status).toBe(200);
      expect(json.clients).toHaveLength(1);
      const [client] = json.clients;
      expect(client.counters.polls).toBe(3);
      expect(client.subscriptions).toHaveLength(1);
      const violation = client.violations.find((v: { rule: string }) => v.rule === 'resume.after-empty');
      expect(violation, JSON.stringify(client.violations)).toBeDefined();
      expect(violation.message).toMatch(/lost message 2$/);
      const replicas = violation.requests.map((r: JournalEntry) => r.replica);
      expect(new Set(replicas).size).toBe(2);
    }
    await expect(b.emulator).not.toHaveNoClientViolations();
    await expect(a.emulator).not.toHaveNoClientViolations();
  });

  it('GET /_emulator/state lists the waiting subscribers of every replica, naming the replica', async () => {
    const [a, b] = await pair();
    const waitingOnA = a.subscribe('cache', 'wait-a');
    const waitingOnB = b.subscribe('cache', 'wait-b');
    await until(() => a.emulator.context.waiting.size === 1 && b.emulator.context.waiting.size === 1, 'both to wait');
    for (const replica of [a, b]) {
      const { status, json } = await control(replica, '/state');
      expect(status).toBe(200);
      const held = Object.fromEntries(
        json.waitingSubscribers.map((w: { topic: string; replica: string }) => [w.topic, w.replica]),
      );
      expect(held).toEqual({
        'wait-a': a.emulator.context.shared?.replicas!.id,
        'wait-b': b.emulator.context.shared?.replicas!.id,
      });
      // Each topic's count is every replica's too, as is the event stream's first message.
      const counts = (topics: { topic: string; waitingSubscribers: number }[]) =>
        Object.fromEntries(topics.map((t) => [t.topic, t.waitingSubscribers]));
      expect(counts(json.topics)).toEqual({ 'wait-a': 1, 'wait-b': 1 });
      const hello = (await helloOf(replica)) as typeof json;
      expect(hello.waitingSubscribers.map((w: { topic: string }) => w.topic).sort()).toEqual(['wait-a', 'wait-b']);
      expect(counts(hello.topics)).toEqual({ 'wait-a': 1, 'wait-b': 1 });
    }
    await a.publish('cache', 'wait-a', 'x');
    await b.publish('cache', 'wait-b', 'y');
    await Promise.all([waitingOnA, waitingOnB]);
  });

  it('a replica that stops answering fails gathered reads with replica_unreachable until it leaves the registry', async () => {
    const [a, , prefix] = await pair();
    const { run: child, url } = await fleet.child(prefix);
    const published = await fetch(`${url}/topics/cache/child`, {
      method: 'POST',
      headers: { authorization: a.key, 'content-type': 'text/plain' },
      body: 'from the child',
    });
    expect(published.status).toBe(204);
    await counted(a, { operation: 'publish', topic: 'child' }, 1);
    const childId = (await a.emulator.requests({ topic: 'child' })).entries[0]!.replica!;
    expect(childId).not.toBe(a.emulator.context.shared?.replicas!.id);

    // Stopped: registered and subscribed, but silent: the read waits its bound, then fails.
    child.child.kill('SIGSTOP');
    const stopped = await control(a, '/requests');
    child.child.kill('SIGCONT');
    expect(stopped.status).toBe(503);
    expect(stopped.json.code).toBe('replica_unreachable');
    expect(stopped.json.message).toContain(childId);
    expect(stopped.json.message).toMatch(/did not answer within 2000 ms/);

    // Killed: nobody listens on its channel any more; every gathered read fails, loudly.
    child.child.kill('SIGKILL');
    await child.exited;
    const killedAt = Date.now();
    for (const [path, body] of [['/requests'], ['/requests/count', {}], ['/clients'], ['/state']] as const) {
      const failed = await control(a, path, body);
      expect(failed.status, path).toBe(503);
      expect(failed.json).toMatchObject({ code: 'replica_unreachable', message: expect.stringContaining(childId) });
      // Gone at once (nobody listens on its channel): said so, not "did not answer within".
      expect(failed.json.message).toMatch(/no longer listens \(gone without closing\)/);
    }
    await expect(a.emulator.countRequests({})).rejects.toMatchObject({ code: 'replica_unreachable', status: 503 });
    // Its heartbeat expires: reads succeed again, without its entries.
    const deadline = killedAt + HEARTBEAT_TTL_MS + 5000;
    let recovered: { status: number; json: any } | undefined;
    while (Date.now() < deadline) {
      recovered = await control(a, '/requests/count', { topic: 'child' });
      if (recovered.status === 200) break;
      expect(recovered.json.code).toBe('replica_unreachable');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recovered?.status).toBe(200);
    expect(recovered?.json).toEqual({ count: 0 });
  }, 40_000);

  it('a replica closed cleanly leaves the registry at once', async () => {
    const [a, b] = await pair();
    await b.close();
    running.splice(running.indexOf(b), 1);
    expect((await control(a, '/requests')).status).toBe(200);
  });
});

describe('journal ids across replicas', () => {
  it('afterId is read as each replica’s own count', () => {
    const base = 3 * REPLICA_ID_STRIDE;
    expect(localMatcher({ operation: 'publish' }, 3)).toEqual({ operation: 'publish' });
    expect(localMatcher({ afterId: base - 1 }, 3)).toEqual({});
    expect(localMatcher({ afterId: base + 7 }, 3)).toEqual({ afterId: 7 });
    expect(localMatcher({ afterId: base + REPLICA_ID_STRIDE }, 3)).toBeNull();
  });
});
