import { describe, expect, it } from 'vitest';
import { Clock } from '../../emulator/clock.js';
import { InMemoryTopicStore } from '../../emulator/topics/store.js';
import type { TopicSettings } from '../../emulator/topics/topic.js';

// The in-memory store finds the topic it found last without a lookup: what it finds must be what
// a lookup would, across caches, names, resets and restores.

const settings: TopicSettings = { retention: 10, maxBatch: 10, firstSubscribe: 'next', discontinuity: 'with-item' };

function storeOf(): InMemoryTopicStore {
  return new InMemoryTopicStore(['one', 'two'], settings, new Clock());
}

describe('InMemoryTopicStore, finding the last topic again', () => {
  it('tells a topic from one of the same name in another cache, and a cache from one it does not have', () => {
    const store = storeOf();
    expect(store.publish('one', 't', { text: 'a' })).toBe(1);
    expect(store.publish('two', 't', { text: 'b' })).toBe(1);
    expect(store.publish('one', 't', { text: 'c' })).toBe(2);
    expect(store.topic('one', 't')).not.toBe(store.topic('two', 't'));
    expect(store.topic('one', 'u').position.next).toBe(1);
    expect(store.hasCache('one')).toBe(true);
    expect(store.hasCache('three')).toBe(false);
    expect(() => store.topic('three', 't')).toThrow(RangeError);
  });

  it('forgets the last topic with the rest: after a reset or a restore, a publish numbers from the new state', () => {
    const store = storeOf();
    store.publish('one', 't', { text: 'a' });
    const before = store.topic('one', 't');
    store.clear();
    expect(store.topic('one', 't')).not.toBe(before);
    expect(store.publish('one', 't', { text: 'b' })).toBe(1);
    store.restore([{ cache: 'one', topic: 't', page: 9, nextSequenceNumber: 5, messages: [] }], 9);
    expect(store.publish('one', 't', { text: 'c' })).toBe(5);
    expect(store.find('one', 't')!.position.next).toBe(6);
  });
});
