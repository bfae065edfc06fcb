import { describe, expect, it } from 'vitest';
import { decodeElements, type MessageValue } from '../../conformance/elements.js';
import { StreamModel } from '../../conformance/model.js';
import { baseUrlOf, runCli } from '../helpers/cli.js';
import { testEmulator, until, type TestEmulator } from '../helpers/emulator.js';
import { useFleet } from './fleet.js';

// Requests spread over several replicas of one emulator: three replicas with one job each, a
// replica killed mid-stream, and short random programs checked by the conformance stream model.

const fleet = useFleet();
const { running, children } = fleet;
let prefixes = 0;

async function replicas(count: number): Promise<TestEmulator[]> {
  const prefix = `spread-${++prefixes}:`;
  const started: TestEmulator[] = [];
  for (let i = 0; i < count; i += 1) {
    const replica = await testEmulator({ caches: ['cache'], store: fleet.redis().url, storePrefix: prefix });
    running.push(replica);
    started.push(replica);
  }
  return started;
}

type Element = {
  item?: { topic_sequence_number: number; sequence_page: number; value: { text: string } };
  discontinuity?: { new_sequence_page: number; new_topic_sequence: number };
};
type Items = { items: Element[] };

/** Where a subscriber goes next after an answer: past its last item, or where a discontinuity points. */
function nextCursor(cursor: { seq?: number; page?: number }, body: Items): { seq?: number; page?: number } {
  let next = cursor;
  for (const element of body.items) {
    if (element.item) next = { seq: element.item.topic_sequence_number + 1, page: element.item.sequence_page };
    else if (element.discontinuity)
      next = { seq: element.discontinuity.new_topic_sequence, page: element.discontinuity.new_sequence_page };
  }
  return next;
}

/** A deterministic pseudo-random source (mulberry32), so a failing program can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Reads `topic` through `source()` (a replica per request) until `last` arrives; bounded by `deadline`. */
async function readUntil(
  source: () => { url: string; key: string },
  topic: string,
  last: string,
  onAnswer: (cursor: { seq?: number; page?: number }, body: Items) => void = () => {},
  from: { seq?: number; page?: number } = {},
  deadline = Date.now() + 15_000,
): Promise<Element[]> {
  const seen: Element[] = [];
  let cursor = from;
  while (!seen.some((e) => e.item?.value.text === last)) {
    if (Date.now() > deadline) throw new Error(`${last} never arrived on ${topic}`);
    const { url, key } = source();
    const query = cursor.seq === undefined ? '' : `?sequence_number=${cursor.seq}&sequence_page=${cursor.page}`;
    const response = await fetch(`${url}/topics/cache/${topic}${query}`, { headers: { authorization: key } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Items;
    onAnswer(cursor, body);
    seen.push(...body.items);
    cursor = nextCursor(cursor, body);
  }
  return seen;
}

const delivered = (elements: Element[]) =>
  elements.flatMap((e) => (e.item ? [`${e.item.topic_sequence_number}:${e.item.value.text}`] : []));

describe('requests spread over replicas', () => {
  it('three replicas: publish on one, subscribe on another, page change on a third', async () => {
    const [publisher, subscriber, pager] = (await replicas(3)) as [TestEmulator, TestEmulator, TestEmulator];
    expect((await publisher.publish('cache', 'three', 'one')).status).toBe(204);
    const page = publisher.emulator.context.store.position('cache', 'three')!.page;
    const first = (await subscriber.subscribe('cache', 'three', { seq: 1, page })).json as Items;
    expect(first.items.map((e) => e.item?.value.text)).toEqual(['one']);

    const waiting = subscriber.subscribe('cache', 'three', { seq: 2, page });
    await until(() => subscriber.emulator.context.waiting.size === 1, 'the subscribe to wait');
    const changed = pager.emulator.resetTopic('cache', 'three');
    expect(changed.page).toBeGreaterThan(page);
    expect((await publisher.publish('cache', 'three', 'two')).status).toBe(204);
    const answer = (await waiting).json as Items;
    expect(answer.items[0]!.discontinuity).toMatchObject({ new_sequence_page: changed.page, new_topic_sequence: 1 });
    expect(answer.items[1]!.item).toMatchObject({
      topic_sequence_number: 1,
      sequence_page: changed.page,
      value: { text: 'two' },
    });
    // Every replica sees the same topic: the new page, numbered from 1.
    for (const replica of [publisher, subscriber, pager]) {
      await until(
        () => replica.emulator.context.store.position('cache', 'three')?.next === 2,
        'every replica to hold message 1 of the new page',
      );
      expect(replica.emulator.context.store.position('cache', 'three')!.page).toBe(changed.page);
    }
  });

  it('a replica killed with SIGKILL mid-stream loses nothing it acknowledged; the others keep serving', async () => {
    const [a, b] = (await replicas(2)) as [TestEmulator, TestEmulator];
    const prefix = `spread-${prefixes}:`;
    const child = runCli(['--port', '0', '--store', fleet.redis().url, '--store-prefix', prefix, '--cache', 'cache']);
    children.push(child);
    child.child.stdout.resume();
    const childUrl = await baseUrlOf(child);
    const childKey = a.key; // one signing key: the key a's tests use is valid on every replica
    expect((await a.publish('cache', 'killed', 'first')).status).toBe(204);
    const acked = ['first'];
    const unknown: string[] = [];
    const from = { seq: 1, page: a.emulator.context.store.position('cache', 'killed')!.page };
    const readers = [a, b].map((replica) => readUntil(() => replica, 'killed', 'last', undefined, from));

    // Four publishers in flight on the child; it is killed once ten of them were acknowledged.
    let sent = 0;
    const publishOnChild = async () => {
      while (sent < 200) {
        const text = `c${++sent}`;
        try {
          const response = await fetch(`${childUrl}/topics/cache/killed`, {
            method: 'POST',
            headers: { authorization: childKey, 'content-type': 'text/plain' },
            body: text,
          });
          if (response.status === 204) acked.push(text);
          else unknown.push(text);
        } catch {
          unknown.push(text); // the connection died with the replica: maybe numbered, never acknowledged
          return;
        }
        if (acked.length === 10 && child.child.exitCode === null) child.child.kill('SIGKILL');
      }
    };
    await Promise.all([publishOnChild(), publishOnChild(), publishOnChild(), publishOnChild()]);
    await child.exited;
    expect(acked.length).toBeGreaterThanOrEqual(10);
    expect(sent).toBeLessThan(200); // the kill came mid-stream

    // The survivors keep serving: more publishes, one after another, then the last.
    for (const text of ['s1', 's2', 's3', 'last']) {
      expect((await (text === 's2' ? b : a).publish('cache', 'killed', text)).status).toBe(204);
      acked.push(text);
    }
    const [onA, onB] = (await Promise.all(readers)) as [Element[], Element[]];
    // Both survivors delivered the same numbers with the same values, with no gap.
    expect(delivered(onA)).toEqual(delivered(onB));
    const numbers = onA.flatMap((e) => (e.item ? [e.item.topic_sequence_number] : []));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    // Every acknowledged publish is there; anything else is one the dead replica never answered.
    const texts = onA.flatMap((e) => (e.item ? [e.item.value.text] : []));
    expect(texts).toEqual(expect.arrayContaining(acked));
    for (const text of texts) expect(acked.includes(text) || unknown.includes(text), text).toBe(true);
    expect(texts.slice(-4)).toEqual(['s1', 's2', 's3', 'last']);
  });

  for (const seed of [1, 2, 3]) {
    it(`a random program over two replicas (seed ${seed}) keeps the stream model's properties`, async () => {
      const replicaPair = await replicas(2);
      const next = random(seed);
      const pick = () => replicaPair[Math.floor(next() * replicaPair.length)]!;
      const topic = `program-${seed}`;
      const model = new StreamModel();
      const text = (t: string): MessageValue => ({ kind: 'text', text: t });
      let exchanges = 0;

      const publish = async (value: string, label?: 'sentinel' | 'warm-up') => {
        const record = model.publishStarted(text(value), label);
        const reply = await pick().publish('cache', topic, value);
        model.publishEnded(record, reply.status === 204 ? 'acked' : 'rejected', ++exchanges);
        expect(reply.status).toBe(204);
      };
      await publish('warm', 'warm-up');

      // Three subscribers, each sending every long-poll to a replica picked at random.
      const subscribers = ['s1', 's2', 's3'].map((id) => {
        model.addSubscriber(id);
        return readUntil(
          () => pick(),
          topic,
          'end',
          (cursor, body) =>
            model.received(id, { n: cursor.seq ?? 0, page: cursor.page ?? 0 }, decodeElements(body)!, ++exchanges),
        ).then(() => model.finish(id));
      });

      // Thirty steps: a burst of one to three concurrent publishes, or a page change (step 15, and about one in ten).
      for (let step = 0; step < 30; step += 1) {
        if (step === 15 || next() < 0.1) {
          const reset = model.resetStarted();
          pick().emulator.resetTopic('cache', topic);
          model.resetEnded(reset);
          continue;
        }
        const burst = 1 + Math.floor(next() * 3);
        await Promise.all(Array.from({ length: burst }, (_, i) => publish(`p${step}.${i}`)));
      }
      await publish('end', 'sentinel');
      await Promise.all(subscribers);
      expect(model.check()).toEqual([]);
      expect(model.publishes.filter((p) => p.outcome === 'acked').length).toBeGreaterThan(30);
    });
  }
});
