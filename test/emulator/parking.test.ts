import { describe, expect, it } from 'vitest';
import { Clock } from '../../emulator/clock.js';
import { TopicParking } from '../../emulator/service/parking.js';
import { InMemoryTopicStore } from '../../emulator/topics/store.js';
import type { ReadAnswer, WaitingSubscriber } from '../../emulator/topics/subscriber.js';
import type { TopicSettings } from '../../emulator/topics/topic.js';

// Parking is the core's, the topics the store's: the store says what changed, parking reads it
// again for whoever waits, a few at once within the publish, many on the next turn.

const settings: TopicSettings = { retention: 10, maxBatch: 10, firstSubscribe: 'next', discontinuity: 'with-item' };

function parkedOn() {
  const store = new InMemoryTopicStore(['c'], settings, new Clock());
  const parking = new TopicParking((cache, topic, cursor, maxItems) => store.read(cache, topic, cursor, maxItems));
  store.listen({
    topicChanged: (cache, topic, published) => parking.changed(cache, topic, published),
    clearedElsewhere: () => undefined,
    cacheChangedElsewhere: () => undefined,
  });
  const answers: ReadAnswer[] = [];
  const subscriber = (sequenceNumber: number, sequencePage: number, maxItems = Infinity): WaitingSubscriber => ({
    cursor: { sequenceNumber, sequencePage },
    since: 0,
    maxItems,
    answer: (read) => answers.push(read),
  });
  return { store, parking, answers, subscriber };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('parking', () => {
  it('answers a few within the publish, and forgets them', () => {
    const { store, parking, answers, subscriber } = parkedOn();
    const { page } = store.use('c', 't');
    for (let i = 0; i < 3; i++) parking.park('c', 't', subscriber(1, page));
    expect(parking.count('c', 't')).toBe(3);
    store.publish('c', 't', { text: 'a' });
    expect(answers.map((a) => a.items)).toEqual([1, 1, 1]);
    expect(parking.count('c', 't')).toBe(0);
  });

  it('answers many on the next turn, with every message of the turn in one answer', async () => {
    const { store, parking, answers, subscriber } = parkedOn();
    const { page } = store.use('c', 't');
    for (let i = 0; i < 9; i++) parking.park('c', 't', subscriber(1, page));
    store.publish('c', 't', { text: 'a' });
    store.publish('c', 't', { text: 'b' });
    expect(answers).toEqual([]);
    await nextTurn();
    expect(answers.map((a) => a.items)).toEqual(Array(9).fill(2));
    expect(parking.count('c', 't')).toBe(0);
  });

  it('leaves one whose cursor has nothing yet, and answers on a page change at once', () => {
    const { store, parking, answers, subscriber } = parkedOn();
    const { page } = store.use('c', 't');
    parking.park('c', 't', subscriber(2, page));
    store.publish('c', 't', { text: 'a' });
    expect(answers).toEqual([]);
    expect(parking.count('c', 't')).toBe(1);
    store.changePage('c', 't');
    store.publish('c', 't', { text: 'b' });
    expect(answers).toHaveLength(1);
    expect(answers[0]!.discontinuity).toMatchObject({ last_topic_sequence: 1, new_topic_sequence: 1 });
  });

  it("caps an answer at the subscriber's maxItems, and keeps topics and caches apart", () => {
    const { store, parking, answers, subscriber } = parkedOn();
    const { page } = store.use('c', 't');
    store.createCache('d');
    parking.park('c', 't', subscriber(1, page, 1));
    parking.park('d', 't', subscriber(1, page));
    store.publish('c', 't', { text: 'a' });
    expect(answers.map((a) => a.items)).toEqual([1]);
    expect([parking.count('c', 't'), parking.count('d', 't')]).toEqual([0, 1]);
  });

  it('unparks once: a second unpark, or one never parked, says false', () => {
    const { parking, subscriber } = parkedOn();
    const one = subscriber(1, 1);
    parking.park('c', 't', one);
    expect(parking.unpark('c', 't', one)).toBe(true);
    expect(parking.unpark('c', 't', one)).toBe(false);
    expect(parking.unpark('c', 'other', one)).toBe(false);
    expect(parking.count('c', 't')).toBe(0);
  });
});
