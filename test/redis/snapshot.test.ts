import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../emulator/snapshot/document.js';
import { testEmulator, until, type TestEmulator } from '../helpers/emulator.js';
import { useFleet } from './fleet.js';

// A snapshot loaded through one replica is loaded by every replica on the same store and prefix:
// the topics through the store, the control part (clock, fault rules with their counters, chaos,
// limits, token withdrawals) through the control log, so a replica started later has it too. The
// rules' counters are seeded in the shared ledger and later rule ids pass the restored ones. A
// snapshot taken from either store loads into the other.

const fleet = useFleet();

async function pair(): Promise<[TestEmulator, TestEmulator, () => Promise<TestEmulator>]> {
  const start = fleet.starter('snapshot');
  return [await start(), await start(), start];
}

async function getSnapshot(replica: TestEmulator): Promise<Snapshot> {
  const response = await fetch(`${replica.url}/_emulator/snapshot`);
  expect(response.status).toBe(200);
  return (await response.json()) as Snapshot;
}

function putSnapshot(replica: TestEmulator, snapshot: Snapshot): Promise<Response> {
  return fetch(`${replica.url}/_emulator/snapshot`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(snapshot),
  });
}

/** What every replica shows alike (takenAt is when it was taken; lastPage is the store's own). */
const shown = ({ topics, faults, chaos, limits, clock, tokenWithdrawals }: Snapshot) => ({
  topics,
  faults,
  chaos,
  limits,
  clock,
  tokenWithdrawals,
});

const holds = (replica: TestEmulator, id: string) => replica.emulator.faults().some((f) => f.id === id);
const VIRTUAL_NOW = '2031-02-03T04:05:06.000Z';
/** The snapshot's `count: 2` rule (fired once) and its uncounted one: ids ahead in each replica's block. */
const COUNTED = 'f103';
const UNCOUNTED = 'f3';

/**
 * An in-memory emulator's snapshot with something of each part: topics, a virtual clock, a
 * `count: 2` rule fired once, an uncounted rule, chaos, limits, a revoked token and an expiry due later.
 */
async function memorySnapshot(): Promise<Snapshot> {
  const memory = await testEmulator({ caches: ['cache'] });
  try {
    memory.emulator.setClock({ mode: 'virtual', setTo: VIRTUAL_NOW });
    for (const text of ['one', 'two']) expect((await memory.publish('cache', 'kept', text)).status).toBe(204);
    memory.emulator.addFault({ operation: 'publish', topic: 'loaded', status: 500, count: 2 });
    expect((await memory.publish('cache', 'loaded', 'x')).status).toBe(500);
    memory.emulator.addFault({ operation: 'subscribe', topic: 'elsewhere', status: 503 });
    memory.emulator.startChaos({ seed: 7, rate: 0.5, topic: 'chaotic' });
    memory.emulator.setLimits({ enabled: true, operationsPerSecond: 900 });
    memory.emulator.revokeToken('gone');
    memory.emulator.expireToken('later', { afterMs: 60_000 });
    const snapshot = await getSnapshot(memory);
    expect(snapshot.faults.map((f) => [f.id, f.fired])).toEqual([
      ['f1', 1],
      ['f2', 0],
    ]);
    // Ids the replicas would hand out next: the first replica has given f1, the second nothing.
    snapshot.faults[0]!.id = COUNTED;
    snapshot.faults[1]!.id = UNCOUNTED;
    return snapshot;
  } finally {
    await memory.close();
  }
}

describe('a snapshot loaded through one replica', () => {
  it('loads its clock, rules with their counts, chaos, limits and withdrawals on every replica', async () => {
    const snapshot = await memorySnapshot();
    const [a, b] = await pair();
    const before = a.emulator.addFault({ operation: 'publish', status: 503 });
    await until(() => holds(b, before.id), 'b to hold the rule added before');

    expect((await putSnapshot(a, snapshot)).status).toBe(200);
    await until(
      () => b.emulator.clock().mode === 'virtual' && holds(b, COUNTED) && !holds(b, before.id),
      'b to load the control part',
    );
    // GET /_emulator/snapshot on either replica shows the loaded state (taken from the in-memory store).
    expect(shown(await getSnapshot(b))).toEqual(shown(snapshot));
    expect(shown(await getSnapshot(a))).toEqual(shown(snapshot));
    expect(b.emulator.clock().now).toBe(VIRTUAL_NOW);
    expect(b.emulator.chaos()).toMatchObject({ enabled: true, seed: 7, rate: 0.5, topic: 'chaotic' });
    expect(b.emulator.limits()).toMatchObject({ enabled: true, operationsPerSecond: 900 });

    // The revocation applies on b to a token signed on a (at the loaded virtual time, so not expired).
    const issued = await a.emulator.issueToken({
      tokenId: 'gone',
      permissions: [{ role: 'publishsubscribe', cache: 'cache' }],
    });
    const refused = await b.publish('cache', 'kept', 'x', { headers: { authorization: issued.token } });
    expect(refused.json.code).toBe('invalid_token');

    // Rule ids handed out later pass the restored ones, on both replicas.
    const added = [
      ...Array.from({ length: 5 }, () => a.emulator.addFault({ operation: 'publish', topic: 'other', status: 500 })),
      ...Array.from({ length: 5 }, () => b.emulator.addFault({ operation: 'publish', topic: 'other', status: 500 })),
    ].map((f) => f.id);
    expect(new Set([...added, COUNTED, UNCOUNTED]).size).toBe(12);
    for (const replica of [a, b]) {
      await until(() => replica.emulator.faults().length === 12, 'every rule on both replicas');
      expect(replica.emulator.fault(COUNTED)).toMatchObject({
        rule: { topic: 'loaded', count: 2 },
        fired: 1,
        remaining: 1,
      });
      expect(replica.emulator.fault(UNCOUNTED)).toMatchObject({ rule: { topic: 'elsewhere' }, fired: 0 });
    }

    // A firing on b shows in a's snapshot.
    expect((await b.subscribe('cache', 'elsewhere', { seq: 1 })).status).toBe(503);
    await until(() => a.emulator.fault(UNCOUNTED).fired === 1, 'a to see the firing on b');
    expect((await getSnapshot(a)).faults.find((f) => f.id === UNCOUNTED)).toMatchObject({ matched: 1, fired: 1 });

    // The `count: 2` rule that fired once before the snapshot fires once more, across both, then is used up.
    expect((await b.publish('cache', 'loaded', 'x')).status).toBe(500);
    expect((await a.publish('cache', 'loaded', 'x')).status).toBe(204);
    expect((await b.publish('cache', 'loaded', 'x')).status).toBe(204);
    await until(() => !holds(a, COUNTED) && !holds(b, COUNTED), 'both to drop the used-up rule');
  });

  it('is loaded, with the rules’ shared counts, by a replica started after it', async () => {
    const snapshot = await memorySnapshot();
    const [a, b, start] = await pair();
    b.emulator.setClock({ mode: 'virtual', setTo: '2030-01-01T00:00:00.000Z' }); // replaced by the load
    expect((await putSnapshot(b, snapshot)).status).toBe(200);
    await until(() => a.emulator.clock().now === VIRTUAL_NOW && holds(a, COUNTED), 'a to load the control part');
    expect((await a.subscribe('cache', 'elsewhere', { seq: 1 })).status).toBe(503);
    await until(() => b.emulator.fault(UNCOUNTED).fired === 1, 'b to see the firing on a');

    const c = await start();
    const onC = shown(await getSnapshot(c));
    expect(onC).toEqual(shown(await getSnapshot(a)));
    expect(onC.clock).toEqual(snapshot.clock);
    expect(onC.faults.map((f) => [f.id, f.fired])).toEqual([
      [COUNTED, 1],
      [UNCOUNTED, 1],
    ]);
    // The counted rule's last firing happens on the newcomer, once.
    expect((await c.publish('cache', 'loaded', 'x')).status).toBe(500);
    expect((await a.publish('cache', 'loaded', 'x')).status).toBe(204);
    await until(() => [a, b, c].every((r) => !holds(r, COUNTED)), 'every replica to drop the used-up rule');
  });

  it('that is bad is a 400 that changes nothing on any replica', async () => {
    const snapshot = await memorySnapshot();
    const [a, b, start] = await pair();
    const rule = a.emulator.addFault({ operation: 'publish', topic: 'kept-rule', status: 503 });
    await until(() => holds(b, rule.id), 'b to hold the rule');
    snapshot.faults[1]!.id = COUNTED; // twice
    const answer = await putSnapshot(b, snapshot);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: 'invalid_body', message: expect.stringContaining('used twice') });

    // A change made after it reaches a: whatever b had passed on before it would have, too.
    b.emulator.setLimits({ enabled: true, operationsPerSecond: 123 });
    await until(() => a.emulator.limits().operationsPerSecond === 123, 'a to apply the later change');
    const c = await start();
    for (const replica of [a, b, c]) {
      expect(replica.emulator.faults().map((f) => f.id)).toEqual([rule.id]);
      expect(replica.emulator.clock().mode).toBe('real');
      expect(replica.emulator.chaos().enabled).toBe(false);
    }
  });
});

describe('a snapshot taken from the Redis store', () => {
  it('loads into an in-memory emulator, the same', async () => {
    const [a, b] = await pair();
    expect((await putSnapshot(a, await memorySnapshot())).status).toBe(200);
    await until(() => holds(b, COUNTED), 'b to load the control part');
    expect((await b.publish('cache', 'kept', 'three')).status).toBe(204);
    expect((await b.subscribe('cache', 'elsewhere', { seq: 1 })).status).toBe(503);
    await until(() => a.emulator.fault(UNCOUNTED).fired === 1, 'a to see the firing on b');
    const fromRedis = await getSnapshot(a);
    expect(fromRedis.topics.find((t) => t.topic === 'kept')?.messages).toHaveLength(3);

    const memory = await testEmulator({ caches: ['cache'] });
    fleet.running.push(memory);
    expect((await putSnapshot(memory, fromRedis)).status).toBe(200);
    const inMemory = await getSnapshot(memory);
    expect(shown(inMemory)).toEqual(shown(fromRedis));
    expect(inMemory.lastPage).toBe(fromRedis.lastPage);
  });
});
