import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { defineScripts } from '../../emulator/redis/scripts.js';
import { keyLayout, type KeyLayout } from '../../emulator/redis/keys.js';
import { COMPACT_EVERY } from '../../emulator/redis/shared-control.js';
import { testEmulator, until, type TestEmulator } from '../helpers/emulator.js';
import { useFleet } from './fleet.js';

// What the control plane shows or changes is one state for every replica on the same store and
// prefix: a fault rule's counters are one ledger (a `count: 1` rule fires once in all), rule ids
// are unique across replicas, and a replica started later begins with the state the others have.

const fleet = useFleet();

async function pair(): Promise<[TestEmulator, TestEmulator, () => Promise<TestEmulator>]> {
  const start = fleet.starter('shared');
  return [await start(), await start(), start];
}

const holds = (replica: TestEmulator, id: string) => replica.emulator.faults().some((f) => f.id === id);
const fired = (replica: TestEmulator, id: string) => replica.emulator.faults().find((f) => f.id === id)?.fired;

describe('fault rules counted across replicas', () => {
  it('a count: 1 rule fires once, whichever replica the requests reach, and is gone from both', async () => {
    const [a, b] = await pair();
    const rule = a.emulator.addFault({ operation: 'publish', topic: 'once', status: 500, count: 1 });
    await until(() => holds(b, rule.id), 'b to hold the rule');
    expect((await b.publish('cache', 'once', 'x')).status).toBe(500);
    expect((await a.publish('cache', 'once', 'x')).status).toBe(204);
    expect((await b.publish('cache', 'once', 'x')).status).toBe(204);
    await until(() => !holds(a, rule.id) && !holds(b, rule.id), 'both to drop the used-up rule');
  });

  it('with requests interleaved in parallel across both, a count of 3 fires exactly 3 times', async () => {
    const [a, b] = await pair();
    const rule = b.emulator.addFault({ operation: 'publish', topic: 'burst', status: 500, count: 3 });
    await until(() => holds(a, rule.id), 'a to hold the rule');
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).publish('cache', 'burst', `m${i}`)),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 500)).toHaveLength(3);
    expect(statuses.filter((s) => s === 204)).toHaveLength(21);
  });

  it('skips count every replica’s requests, and both show the shared counts', async () => {
    const [a, b] = await pair();
    const rule = a.emulator.addFault({ operation: 'publish', topic: 'skipped', status: 500, skip: 2, count: 3 });
    await until(() => holds(b, rule.id), 'b to hold the rule');
    const statuses: number[] = [];
    for (const replica of [a, b, a, b]) statuses.push((await replica.publish('cache', 'skipped', 'x')).status);
    expect(statuses).toEqual([204, 204, 500, 500]);
    // GET /_emulator/faults on each replica shows the counts both made.
    for (const replica of [a, b]) {
      await until(() => fired(replica, rule.id) === 2, 'the shared fired count');
      const listed = await fetch(`${replica.url}/_emulator/faults`).then((r) => r.json());
      expect(listed.faults).toEqual([expect.objectContaining({ id: rule.id, matched: 4, fired: 2, remaining: 1 })]);
    }
  });

  it('a rule without a count fires everywhere, and its counts add up on every replica', async () => {
    const [a, b] = await pair();
    const rule = a.emulator.addFault({ operation: 'publish', topic: 'always', status: 503 });
    await until(() => holds(b, rule.id), 'b to hold the rule');
    for (const replica of [a, b, b]) expect((await replica.publish('cache', 'always', 'x')).status).toBe(503);
    await until(() => fired(a, rule.id) === 3 && fired(b, rule.id) === 3, 'both to show 3 firings');
  });

  it('"after N items" counts the items both replicas delivered; the answer past N fires once', async () => {
    const [a, b] = await pair();
    for (let i = 1; i <= 5; i += 1) expect((await a.publish('cache', 'items', `m${i}`)).status).toBe(204);
    await until(() => b.emulator.context.store.position('cache', 'items')?.next === 6, 'b to hold 5 messages');
    const rule = a.emulator.addFault({ operation: 'subscribe', topic: 'items', afterItems: 3, status: 500, count: 1 });
    await until(() => holds(b, rule.id), 'b to hold the rule');
    const first = await a.subscribe('cache', 'items', { seq: 1 });
    expect(first.json.items).toHaveLength(3); // cut at N
    await until(() => b.emulator.fault(rule.id).armed, 'b to see the rule armed by a’s answer');
    expect((await b.subscribe('cache', 'items', { seq: 4 })).status).toBe(500);
    expect((await a.subscribe('cache', 'items', { seq: 4 })).status).toBe(200);
  });

  it('a "while waiting" rule with count 1 interrupts one of two subscribers waiting on different replicas', async () => {
    const [a, b] = await pair();
    const rule = a.emulator.addFault({
      operation: 'subscribe',
      topic: 'idle',
      whileWaiting: true,
      status: 503,
      count: 1,
    });
    await until(() => holds(b, rule.id), 'b to hold the rule');
    const answers = [a.subscribe('cache', 'idle'), b.subscribe('cache', 'idle')];
    const first = await Promise.race(answers);
    expect(first.status).toBe(503);
    await until(() => !holds(a, rule.id) && !holds(b, rule.id), 'both to drop the used-up rule');
    await until(
      () => a.emulator.context.waiting.size + b.emulator.context.waiting.size === 1,
      'the other subscriber to keep waiting',
    );
    expect((await a.publish('cache', 'idle', 'wake')).status).toBe(204);
    const statuses = (await Promise.all(answers)).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 503]);
  });

  it('rules added on two replicas at the same time get distinct ids, which both replicas hold', async () => {
    const [a, b] = await pair();
    const added = [
      ...Array.from({ length: 5 }, () => a.emulator.addFault({ operation: 'publish', status: 500 })),
      ...Array.from({ length: 5 }, () => b.emulator.addFault({ operation: 'publish', status: 500 })),
    ].map((f) => f.id);
    expect(new Set(added).size).toBe(10);
    for (const id of added) expect(id).toMatch(/^f[1-9][0-9]*$/);
    for (const replica of [a, b])
      await until(() => replica.emulator.faults().length === 10, 'every rule on both replicas');
    expect(
      a.emulator
        .faults()
        .map((f) => f.id)
        .sort(),
    ).toEqual([...added].sort());
  });
});

describe('a replica started later', () => {
  it('starts with the faults, chaos, limits, clock and token withdrawals the others have, and applies them', async () => {
    const [a, b, start] = await pair();
    const used = a.emulator.addFault({ operation: 'publish', topic: 'used', status: 500, count: 1 });
    const rule = a.emulator.addFault({ operation: 'publish', topic: 'late', status: 500, count: 2 });
    await until(() => holds(b, rule.id), 'b to hold the rules');
    expect((await b.publish('cache', 'used', 'x')).status).toBe(500);
    expect((await b.publish('cache', 'late', 'x')).status).toBe(500);
    b.emulator.startChaos({ seed: 7, rate: 0.5, topic: 'chaotic' });
    a.emulator.setLimits({ enabled: true, operationsPerSecond: 900 });
    a.emulator.setClock({ mode: 'virtual', setTo: '2031-02-03T04:05:06.000Z' });
    await until(() => b.emulator.clock().mode === 'virtual', 'b to follow the clock');
    // Signed at the virtual time, so it is revoked, not expired.
    const issued = await b.emulator.issueToken({
      tokenId: 'late-token',
      permissions: [{ role: 'publishsubscribe', cache: 'cache' }],
    });
    b.emulator.revokeToken('late-token');
    a.emulator.expireToken('later-token', { afterMs: 60_000 }); // due at the same clock time everywhere
    await until(() => fired(a, rule.id) === 1 && !holds(a, used.id), 'a to see the counts');

    const c = await start();
    expect(c.emulator.faults()).toEqual(a.emulator.faults());
    expect(c.emulator.faults()).toEqual([expect.objectContaining({ id: rule.id, fired: 1, remaining: 1 })]);
    expect(c.emulator.chaos()).toMatchObject({ enabled: true, seed: 7, rate: 0.5, topic: 'chaotic' });
    expect(c.emulator.limits()).toMatchObject({ enabled: true, operationsPerSecond: 900 });
    expect(c.emulator.clock()).toMatchObject({ mode: 'virtual', now: '2031-02-03T04:05:06.000Z' });
    expect(c.emulator.state().scheduled.tokenWithdrawals).toEqual([
      { tokenId: 'later-token', how: 'expired', at: '2031-02-03T04:06:06.000Z', scheduled: true },
    ]);
    const refused = await c.subscribe('cache', 'late', { seq: 1 }, { headers: { authorization: issued.token } });
    expect(refused.json.code).toBe('invalid_token');
    // The rule's last firing happens on the newcomer, once.
    expect((await c.publish('cache', 'late', 'x')).status).toBe(500);
    expect((await a.publish('cache', 'late', 'x')).status).toBe(204);
    await until(() => [a, b, c].every((r) => r.emulator.faults().length === 0), 'every replica to drop the rule');
  });

  it('after a reset, starts from a clean control plane', async () => {
    const [a, b, start] = await pair();
    await a.emulator.issueToken({
      tokenId: 'reset-token',
      permissions: [{ role: 'publishsubscribe', cache: 'cache' }],
    });
    a.emulator.addFault({ operation: 'publish', status: 500 });
    a.emulator.startChaos({ seed: 3, rate: 0.5 });
    a.emulator.setLimits({ enabled: true });
    a.emulator.setClock({ mode: 'virtual' });
    a.emulator.revokeToken('reset-token');
    await until(() => b.emulator.faults().length === 1 && b.emulator.clock().mode === 'virtual', 'b to follow');
    b.emulator.reset();
    await until(() => a.emulator.faults().length === 0, 'a to reset');
    const added = b.emulator.addFault({ operation: 'subscribe', topic: 'after-reset', status: 503 });

    const c = await start();
    expect(c.emulator.faults().map((f) => f.id)).toEqual([added.id]);
    expect(c.emulator.chaos().enabled).toBe(false);
    expect(c.emulator.limits().enabled).toBe(false);
    expect(c.emulator.clock().mode).toBe('real');
    expect(c.emulator.state().scheduled.tokenWithdrawals).toEqual([]);
    expect((await c.publish('cache', 'after-reset', 'x')).status).toBe(204);
  });

  it('that lost its connection applies, once back, the changes made meanwhile', async () => {
    const [a, b] = await pair();
    const probe = new Redis(fleet.redis().url);
    try {
      await probe.client('KILL', 'TYPE', 'pubsub'); // every replica's subscriber connection
    } finally {
      probe.disconnect();
    }
    const rule = a.emulator.addFault({ operation: 'publish', topic: 'missed', status: 500, count: 1 });
    a.emulator.setLimits({ enabled: true, operationsPerSecond: 321 });
    await until(() => holds(b, rule.id) && b.emulator.limits().operationsPerSecond === 321, 'b to catch up');
    await until(() => b.emulator.context.store.health().up, 'b back in step');
    expect((await b.publish('cache', 'missed', 'x')).status).toBe(500);
    expect(b.emulator.faults()).toEqual([]);
  });

  it('after the log was compacted, starts with the state the changes led to, and the log stays short', async () => {
    const [a, b, start] = await pair();
    const prefix = a.emulator.context.settings.storePrefix;
    const kept = b.emulator.addFault({ operation: 'publish', topic: 'kept', status: 500, count: 2 });
    b.emulator.startChaos({ seed: 11, rate: 0.25, topic: 'chaotic' });
    a.emulator.setLimits({ enabled: true, operationsPerSecond: 700 });
    b.emulator.revokeToken('revoked-token');
    const epoch = Date.parse('2032-01-01T00:00:00.000Z');
    // Clock changes from one replica, rules added and removed on the other, interleaved.
    const changes = COMPACT_EVERY + 150;
    for (let i = 0; i < changes; i += 1) {
      if (i % 50 === 25) {
        const passing = b.emulator.addFault({ operation: 'subscribe', topic: `passing-${i}`, status: 503 });
        b.emulator.removeFault(passing.id);
      }
      // Due ten days after the clock's reading then (epoch + 499 s): still scheduled at the end.
      if (i === 500) a.emulator.expireToken('expiring-token', { afterMs: 10 * 86_400_000 });
      a.emulator.setClock({ mode: 'virtual', setTo: new Date(epoch + i * 1000).toISOString() });
    }
    const last = new Date(epoch + (changes - 1) * 1000).toISOString();
    await until(() => b.emulator.clock().now === last, 'b to apply every change');
    expect((await b.publish('cache', 'kept', 'x')).status).toBe(500);
    await until(() => a.emulator.faults()[0]?.fired === 1, 'a to see the firing');

    const probe = new Redis(fleet.redis().url);
    try {
      let compactedAt = 0;
      const deadline = Date.now() + 5000;
      while (compactedAt === 0 && Date.now() < deadline)
        compactedAt = Number((await probe.hget(`${prefix}control-base`, 'n')) ?? 0);
      expect(compactedAt).toBeGreaterThanOrEqual(COMPACT_EVERY);
      // What is left of the log: only changes after the compacted state, fewer than were made since the start.
      const left = (await probe.xrange(`${prefix}control`, '-', '+')).map(([id]) => Number(id.split('-')[0]));
      expect(left.length).toBeLessThan(changes - COMPACT_EVERY + 10);
      expect(left.every((n) => n > compactedAt)).toBe(true);
    } finally {
      probe.disconnect();
    }

    const c = await start();
    expect(c.emulator.faults()).toEqual(a.emulator.faults());
    expect(c.emulator.faults()).toEqual([expect.objectContaining({ id: kept.id, fired: 1, remaining: 1 })]);
    expect(c.emulator.chaos()).toMatchObject({ enabled: true, seed: 11, rate: 0.25, topic: 'chaotic' });
    expect(c.emulator.limits()).toMatchObject({ enabled: true, operationsPerSecond: 700 });
    expect(c.emulator.clock()).toMatchObject({ mode: 'virtual', now: last });
    // Every replica shows a withdrawal at the time it took effect where it was made (b revoked
    // before a's clock moved to 2032; a applied it after).
    const withdrawals = (replica: TestEmulator) => replica.emulator.snapshot().tokenWithdrawals;
    expect(withdrawals(a)).toEqual(withdrawals(b));
    expect(withdrawals(c)).toEqual(withdrawals(a));
    expect(withdrawals(c).map(({ tokenId, how, scheduled }) => [tokenId, how, scheduled])).toEqual([
      ['revoked-token', 'revoked', false],
      ['expiring-token', 'expired', true],
    ]);
    expect(Date.parse(withdrawals(c)[0]!.at)).toBeLessThan(epoch);
    expect(withdrawals(c)[1]!.at).toBe(new Date(epoch + 499_000 + 10 * 86_400_000).toISOString());
    // Changes after the compaction reach the newcomer as before.
    const later = a.emulator.addFault({ operation: 'publish', topic: 'later', status: 503 });
    await until(() => holds(c, later.id), 'c to hold the rule added after it started');
    expect((await c.publish('cache', 'kept', 'x')).status).toBe(500);
    await until(() => !holds(a, kept.id) && !holds(c, kept.id), 'the used-up rule gone from a and c');

    // A reset leaves no compacted state behind: a replica started after it begins clean.
    c.emulator.reset();
    await until(() => a.emulator.faults().length === 0 && a.emulator.clock().mode === 'real', 'a to reset');
    const d = await start();
    expect(d.emulator.faults()).toEqual([]);
    expect(d.emulator.clock().mode).toBe('real');
    expect(d.emulator.chaos().enabled).toBe(false);
    expect(d.emulator.snapshot().tokenWithdrawals).toEqual([]);
  });
});

/** The control log's scripts run as another replica (`r-elsewhere`) would run them. */
const shareScript = (redis: Redis, keys: KeyLayout, change: object) =>
  defineScripts(redis).shareChange(
    keys.control,
    keys.controlNumber,
    keys.faultCounts,
    keys.faultIds,
    keys.controlBase,
    keys.channel,
    'r-elsewhere',
    JSON.stringify(change),
  );
const compactScript = (redis: Redis, keys: KeyLayout, n: number, compacted: object) =>
  defineScripts(redis).compactControl(keys.control, keys.controlBase, n, JSON.stringify(compacted));

describe('a replica cut off while the log was compacted past it', () => {
  it('loads the compacted state, then the changes after it, and keeps its scheduled page changes', async () => {
    const b = await fleet.starter('lagging')();
    const keys = keyLayout(b.emulator.context.settings.storePrefix);
    b.emulator.resetTopic('cache', 'later-page', { afterSequenceNumber: 5 });
    // The state another replica's changes led to, made on an emulator of its own.
    const elsewhere = await testEmulator({ caches: ['cache'] });
    let compacted: object;
    try {
      elsewhere.emulator.addFault({ operation: 'publish', topic: 'from-the-base', status: 503 });
      elsewhere.emulator.setLimits({ enabled: true, operationsPerSecond: 600 });
      const { faults, chaos, limits, clock, tokenWithdrawals } = elsewhere.emulator.snapshot();
      compacted = { op: 'compacted', control: { faults, chaos, limits, clock, tokenWithdrawals } };
    } finally {
      await elsewhere.close();
    }
    // Changes b never heard of, compacted at once; then one more, announced: b sees the gap.
    const redis = new Redis(fleet.redis().url);
    try {
      const n = await redis.incrby(keys.controlNumber, COMPACT_EVERY);
      expect(await compactScript(redis, keys, n, compacted)).toBe(n);
      await shareScript(redis, keys, { op: 'setLimits', change: { concurrentSubscriptions: 42 } });
    } finally {
      redis.disconnect();
    }
    await until(() => b.emulator.limits().concurrentSubscriptions === 42, 'b to catch up');
    expect(b.emulator.faults()).toEqual([
      expect.objectContaining({ rule: expect.objectContaining({ topic: 'from-the-base' }) }),
    ]);
    expect(b.emulator.limits()).toMatchObject({ enabled: true, operationsPerSecond: 600, concurrentSubscriptions: 42 });
    expect(b.emulator.state().scheduled.topicResets).toEqual([
      expect.objectContaining({ cache: 'cache', topic: 'later-page', afterSequenceNumber: 5 }),
    ]);
    expect((await b.publish('cache', 'from-the-base', 'x')).status).toBe(503);
  });
});

describe('the control log’s scripts', () => {
  it('compact the log up to a number once, and never past a reset made after it', async () => {
    const keys = keyLayout('control-scripts:');
    const redis = new Redis(fleet.redis().url);
    try {
      const share = (change: object) => shareScript(redis, keys, change);
      const compact = (n: number) => compactScript(redis, keys, n, { op: 'compacted', n });
      const logged = async () => (await redis.xrange(keys.control, '-', '+')).map(([id]) => id);
      for (let i = 0; i < 3; i += 1) await share({ op: 'clearFaults' });
      expect(await compact(2)).toBe(2);
      expect(await logged()).toEqual(['3-1']);
      expect(await redis.hgetall(keys.controlBase)).toEqual({ n: '2', c: '{"op":"compacted","n":2}' });
      expect(await compact(1)).toBe(2); // older than the base: refused
      expect(await logged()).toEqual(['3-1']);
      await share({ op: 'reset' }); // number 4: the log starts again with it
      expect(await redis.hgetall(keys.controlBase)).toEqual({ n: '3' });
      expect(await compact(3)).toBe(3); // made from the state before the reset: refused
      expect(await logged()).toEqual(['4-1']);
      await share({ op: 'clearFaults' });
      expect(await compact(5)).toBe(5);
      expect(await logged()).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});

describe('a compaction that cannot read the control state', () => {
  it('is skipped without harm, and made by a later change once the state can be read', async () => {
    const a = await fleet.starter('unreadable')();
    const prefix = a.emulator.context.settings.storePrefix;
    // The control plane's follower (controls.ts), its state read made to fail.
    const follower = (a.emulator.context.shared?.control as unknown as { follower: { current: () => unknown } })
      .follower;
    const current = follower.current;
    follower.current = () => {
      throw new Error('the state cannot be read');
    };
    const epoch = Date.parse('2033-01-01T00:00:00.000Z');
    const at = (i: number) => new Date(epoch + i * 1000).toISOString();
    for (let i = 0; i <= COMPACT_EVERY; i += 1) a.emulator.setClock({ mode: 'virtual', setTo: at(i) });
    const probe = new Redis(fleet.redis().url);
    try {
      // Every change logged, none compacted: the failure stayed in the replica's log.
      const logged = async () => (await probe.xlen(`${prefix}control`)) > COMPACT_EVERY;
      const deadline = Date.now() + 5000;
      while (!(await logged())) if (Date.now() > deadline) throw new Error('the changes were not all logged');
      expect(await probe.hget(`${prefix}control-base`, 'n')).toBeNull();
      expect((await a.publish('cache', 'still-serving', 'x')).status).toBe(204);

      follower.current = current;
      a.emulator.setClock({ mode: 'virtual', setTo: at(COMPACT_EVERY + 1) });
      let compactedAt = 0;
      while (compactedAt === 0 && Date.now() < deadline + 5000)
        compactedAt = Number((await probe.hget(`${prefix}control-base`, 'n')) ?? 0);
      expect(compactedAt).toBeGreaterThan(COMPACT_EVERY);
    } finally {
      probe.disconnect();
    }
  });
});
