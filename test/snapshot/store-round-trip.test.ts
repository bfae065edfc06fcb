import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Clock } from '../../emulator/clock.js';
import { InMemoryTopicStore } from '../../emulator/topics/store.js';
import type { TopicSettings } from '../../emulator/topics/topic.js';

// The store's side of a snapshot, as a property: whatever publishes and page changes happened,
// a store loaded from another's contents holds the same contents and answers every cursor
// with the same body, byte for byte; pages it gives later exceed every loaded one.

type Op =
  | { kind: 'publish'; topic: string; value: { text: string } | { binary: Uint8Array } }
  | { kind: 'page'; topic: string };

const topicName = fc.constantFrom('a', 'b', 'c');
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('publish' as const),
      topic: topicName,
      value: fc.oneof(fc.record({ text: fc.string() }), fc.record({ binary: fc.uint8Array({ maxLength: 8 }) })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('page' as const), topic: topicName }) },
);

function storeOf(settings: TopicSettings): InMemoryTopicStore {
  const clock = new Clock();
  clock.set(1_700_000_000_000);
  return new InMemoryTopicStore(['cache'], settings, clock);
}

describe("a store loaded from another store's contents", () => {
  it('holds the same contents and answers every cursor with the same body', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 40 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom('latest' as const, 'next' as const, 'oldest' as const),
        fc.constantFrom('with-item' as const, 'alone' as const),
        (ops, retention, maxBatch, firstSubscribe, discontinuity) => {
          const settings = { retention, maxBatch, firstSubscribe, discontinuity };
          const source = storeOf(settings);
          for (const o of ops) {
            if (o.kind === 'publish') source.topic('cache', o.topic).publish(o.value);
            else source.changePage('cache', o.topic);
          }
          const target = storeOf(settings);
          target.topic('cache', 'a').publish({ text: 'history of its own' });
          target.restore(source.contents(), source.lastPage());
          expect(target.contents()).toEqual(source.contents());
          for (const topic of source.topics()) {
            const loaded = target.find('cache', topic.name)!;
            const { page, next } = topic.position;
            for (const sequencePage of [0, page - 1, page, page + 1])
              for (let sequenceNumber = 0; sequenceNumber <= next + 1; sequenceNumber++) {
                const cursor = { sequenceNumber, sequencePage };
                expect(loaded.read(cursor), JSON.stringify(cursor)).toEqual(topic.read(cursor)); // body, byte for byte, and its facts
              }
          }
          const lastPage = Math.max(source.lastPage(), ...[...source.topics()].map((t) => t.page));
          expect(target.changePage('cache', 'fresh')).toBeGreaterThan(lastPage);
        },
      ),
      { numRuns: 150 },
    );
  });
});
