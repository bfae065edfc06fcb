import { describe, expect, it } from 'vitest';
import { testEmulator, until, type TestEmulator } from '../helpers/emulator.js';
import { useFleet } from './fleet.js';

// The control plane's changes made on one replica are applied by every replica on the same
// store and prefix: clock, fault rules, limits, chaos, token withdrawals and reset. What each
// replica counts for faults (a rule's matches) stays its own; the limits' counts are limits.test.ts's.

const fleet = useFleet();
let prefixes = 0;

async function pair(): Promise<[TestEmulator, TestEmulator]> {
  const prefix = `control-${++prefixes}:`;
  const start = async () => {
    const replica = await testEmulator({ caches: ['cache'], store: fleet.redis().url, storePrefix: prefix });
    fleet.running.push(replica);
    return replica;
  };
  return [await start(), await start()];
}

describe('control-plane changes across replicas', () => {
  it('the clock: set on one, advanced on the other, back to real time on the first', async () => {
    const [a, b] = await pair();
    a.emulator.setClock({ mode: 'virtual', setTo: '2030-01-01T00:00:00.000Z' });
    await until(() => b.emulator.clock().mode === 'virtual', 'b to follow the clock');
    expect(b.emulator.clock().now).toBe('2030-01-01T00:00:00.000Z');
    b.emulator.advanceClock(90_000);
    await until(() => a.emulator.clock().now === '2030-01-01T00:01:30.000Z', 'a to follow the advance');
    a.emulator.setClock({ mode: 'real' });
    await until(() => b.emulator.clock().mode === 'real', 'b back to real time');
  });

  it('a fault rule added on one replica fires on the other, with the same id; removed there, gone here', async () => {
    const [a, b] = await pair();
    const rule = a.emulator.addFault({ operation: 'publish', status: 500, count: 5 });
    await until(() => b.emulator.faults().length === 1, 'b to hold the rule');
    expect(b.emulator.faults()[0]!.id).toBe(rule.id);
    expect((await b.publish('cache', 'faulty', 'x')).status).toBe(500);
    b.emulator.removeFault(rule.id);
    await until(() => a.emulator.faults().length === 0, 'a to drop the rule');
    expect((await a.publish('cache', 'faulty', 'x')).status).toBe(204);
    // Ids follow: the next rule, added on b, takes an id neither replica used.
    const next = b.emulator.addFault({ operation: 'subscribe', status: 503, count: 1 });
    expect(next.id).not.toBe(rule.id);
    await until(() => a.emulator.faults().some((f) => f.id === next.id), 'a to hold the next rule');
    a.emulator.clearFaults();
    await until(() => b.emulator.faults().length === 0, 'b to clear its rules');
  });

  it('limits and chaos set on one replica are the profile of the other', async () => {
    const [a, b] = await pair();
    a.emulator.setLimits({ enabled: true, operationsPerSecond: 7 });
    await until(() => b.emulator.limits().operationsPerSecond === 7, 'b to take the limits');
    expect(b.emulator.limits().enabled).toBe(true);
    b.emulator.startChaos({ seed: 42, rate: 0.5 });
    await until(() => a.emulator.chaos().enabled, 'a to start chaos');
    expect(a.emulator.chaos()).toMatchObject({ seed: 42, rate: 0.5 });
    a.emulator.stopChaos();
    await until(() => !b.emulator.chaos().enabled, 'b to stop chaos');
  });

  it('a token expired on one replica is refused by the other', async () => {
    const [a, b] = await pair();
    const issued = await a.emulator.issueToken({
      tokenId: 'shared-token',
      permissions: [{ role: 'publishsubscribe', cache: 'cache' }],
    });
    const withToken = { headers: { authorization: issued.token } };
    expect((await a.publish('cache', 'tokens', 'x')).status).toBe(204);
    await until(() => b.emulator.context.store.position('cache', 'tokens')?.next === 2, 'b to hold message 1');
    expect((await b.subscribe('cache', 'tokens', { seq: 1 }, withToken)).status).toBe(200);
    let applied = false;
    const stop = b.emulator.context.events.on((event) => {
      if (event.kind === 'control' && event.operationId === 'expireToken') applied = true;
    });
    a.emulator.expireToken('shared-token');
    await until(() => applied, 'b to apply the withdrawal');
    stop();
    const refused = await b.subscribe('cache', 'tokens', { seq: 1 }, withToken);
    expect(refused.json.code).toBe('expired_token');
  });

  it('a reset on one replica puts back the clock, limits and fault rules of the other', async () => {
    const [a, b] = await pair();
    b.emulator.setClock({ mode: 'virtual' });
    b.emulator.setLimits({ enabled: true });
    b.emulator.addFault({ operation: 'publish', status: 500 });
    await until(() => a.emulator.faults().length === 1, 'a to hold the rule');
    a.emulator.reset();
    await until(() => b.emulator.faults().length === 0, 'b to reset');
    expect(b.emulator.clock().mode).toBe('real');
    expect(b.emulator.limits().enabled).toBe(false);
    expect((await b.publish('cache', 'after-reset', 'x')).status).toBe(204);
  });
});
