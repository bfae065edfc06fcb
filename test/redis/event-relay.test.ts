import { describe, expect, it } from 'vitest';
import type { RedisReplicas } from '../../emulator/redis/replicas.js';
import { RELAY_PER_SECOND } from '../../emulator/redis/event-relay.js';
import { until, type TestEmulator } from '../helpers/emulator.js';
import { openStream, type SseFrame } from '../helpers/sse.js';
import { useFleet } from './fleet.js';

// The event stream on a shared store: a reader of one replica hears the other replicas' requests
// and waiting subscribers (each with the replica it happened on), passed on through Redis only
// while some replica has a reader.

const fleet = useFleet();

/** Two replicas on a prefix of their own. */
async function pair(): Promise<[TestEmulator, TestEmulator]> {
  const start = fleet.starter('relay', { longPollTimeoutMs: 300 });
  return [await start(), await start()];
}

const replicasOf = (replica: TestEmulator) => replica.emulator.context.shared?.replicas as RedisReplicas;
const dataOf = (frame: SseFrame) => JSON.parse(frame.data!) as Record<string, unknown>;
const isRequest = (operation: string, replica: string) => (frame: SseFrame) =>
  frame.event === 'request' &&
  dataOf(frame).replica === replica &&
  (dataOf(frame).record as { operation?: string }).operation === operation;

describe('the event stream with several replicas', () => {
  it("a reader of one replica hears the other's requests and waiting subscribers, each naming its replica", async () => {
    const [a, b] = await pair();
    const [aId, bId] = [replicasOf(a).id, replicasOf(b).id];
    const stream = await openStream(a.url);
    try {
      await stream.next((frame) => frame.event === 'hello');
      await until(() => replicasOf(b).relay.relaying, 'b to pass its events on');

      expect((await b.publish('cache', 'relayed', 'from b')).status).toBe(204);
      const fromB = dataOf(await stream.next(isRequest('publish', bId)));
      expect(fromB).toMatchObject({ kind: 'request', replica: bId, record: { status: 204, topic: 'relayed' } });
      // The publish itself reaches a through the store, as before: one `published` event, no replica.
      const published = dataOf(await stream.next((frame) => frame.event === 'published'));
      expect(published).toMatchObject({ topic: 'relayed', sequenceNumber: 1 });
      expect(published).not.toHaveProperty('replica');

      // A subscriber waiting on b: a's reader sees b's count, then b's answer.
      const poll = b.subscribe('cache', 'relayed', { seq: 2 });
      const waiting = await stream.next(
        (frame) => frame.event === 'waiting' && dataOf(frame).replica === bId && dataOf(frame).waiting === 1,
      );
      expect(dataOf(waiting)).toMatchObject({ cache: 'cache', topic: 'relayed' });
      await poll;
      await stream.next(isRequest('subscribe', bId));

      // a's own requests name a.
      expect((await a.publish('cache', 'relayed', 'from a')).status).toBe(204);
      await stream.next(isRequest('publish', aId));
      // a has a reader and b none: a passes nothing on.
      expect(replicasOf(a).relay.relaying).toBe(false);
    } finally {
      stream.close();
    }
  });

  it('nothing is passed on while nobody reads, and it stops when the last reader goes', async () => {
    const [a, b] = await pair();
    expect(replicasOf(a).relay.relaying).toBe(false);
    expect(replicasOf(b).relay.relaying).toBe(false);
    const first = await openStream(a.url);
    const second = await openStream(a.url);
    await first.next((frame) => frame.event === 'hello');
    await second.next((frame) => frame.event === 'hello');
    await until(() => replicasOf(b).relay.relaying, 'b to pass its events on');
    first.close();
    // One reader is left: b goes on.
    expect((await b.publish('cache', 'still', 'x')).status).toBe(204);
    await second.next(isRequest('publish', replicasOf(b).id));
    expect(replicasOf(b).relay.relaying).toBe(true);
    second.close();
    await until(() => !replicasOf(b).relay.relaying, 'b to stop passing its events on');
  });

  it('a replica passes on at most its rate a second; readers see the rest as a gap', async () => {
    const [a, b] = await pair();
    const stream = await openStream(a.url);
    try {
      await stream.next((frame) => frame.event === 'hello');
      await until(() => replicasOf(b).relay.relaying, 'b to pass its events on');
      const events = b.emulator.context.events;
      const extra = 25;
      // In one turn: RELAY_PER_SECOND + extra of b's `waiting` events (one topic: a's reader gets one of them).
      for (let i = 1; i <= RELAY_PER_SECOND + extra; i++)
        events.emit({ kind: 'waiting', at: i, cache: 'cache', topic: 'burst', waiting: i });
      const gap = await stream.next((frame) => frame.event === 'gap');
      expect(dataOf(gap).dropped).toBe(extra);
      const last = dataOf(await stream.next((frame) => frame.event === 'waiting' && dataOf(frame).topic === 'burst'));
      expect(last).toMatchObject({ replica: replicasOf(b).id, waiting: RELAY_PER_SECOND });
    } finally {
      stream.close();
    }
  });

  it('a reader that came while Redis was out of reach hears the other replica once Redis is back', async () => {
    const [a, b] = await pair();
    const up = (replica: TestEmulator) => replica.emulator.context.store.health().up;
    await fleet.redis().kill();
    await until(() => !up(a) && !up(b), 'the store to be lost', 10_000);
    const stream = await openStream(a.url);
    try {
      await stream.next((frame) => frame.event === 'hello');
      await fleet.redis().restart();
      await until(() => up(a) && up(b), 'the store to be back', 15_000);
      await until(() => replicasOf(b).relay.relaying, 'b to pass its events on', 10_000);
      expect((await b.publish('cache', 'after-restart', 'x')).status).toBe(204);
      await stream.next(isRequest('publish', replicasOf(b).id), 5000);
    } finally {
      stream.close();
    }
  });
});
