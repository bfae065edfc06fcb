import { describe, expect, it } from 'vitest';
import { Clock } from '../../emulator/clock.js';
import { seededRandom } from '../../emulator/faults/random.js';
import { FaultRule } from '../../emulator/faults/rule.js';
import { Topic } from '../../emulator/topics/topic.js';
import { RateWindow } from '../../emulator/limits/rate-window.js';

// The small parts faults and limits are made of.

describe('seededRandom (mulberry32)', () => {
  it('gives the same numbers for the same seed, others for another, all in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const first = Array.from({ length: 1000 }, a);
    expect(Array.from({ length: 1000 }, b)).toEqual(first);
    expect(Array.from({ length: 1000 }, c)).not.toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = first.reduce((s, x) => s + x, 0) / first.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
  });
});

describe('subscribe answers: counted and capped by the read, never parsed', () => {
  const settings = { retention: 10, maxBatch: 100, firstSubscribe: 'oldest', discontinuity: 'with-item' } as const;
  const topicWith = (...texts: string[]) => {
    const topic = new Topic('c', 't', 7, settings);
    for (const text of texts) topic.publish({ text });
    return topic;
  };

  it('carries its item count, even when a text looks like an item', () => {
    const read = topicWith('a', '{"item":{"x":1}}', 'c').read({ sequenceNumber: 1, sequencePage: 7 })!;
    expect(read.items).toBe(3);
    expect(JSON.parse(read.body).items).toHaveLength(3);
    const gap = topicWith('a').read({ sequenceNumber: 1, sequencePage: 3 })!;
    expect([gap.items, gap.discontinuity?.new_sequence_page]).toEqual([1, 7]);
  });

  it('keeps elements up to the n-th item, discontinuities included', () => {
    const topic = topicWith('a', 'b', 'c');
    const kept = topic.read({ sequenceNumber: 1, sequencePage: 3 }, 2)!;
    const items = (JSON.parse(kept.body) as { items: object[] }).items;
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveProperty('discontinuity');
    expect(JSON.stringify(items[2])).toContain('"topic_sequence_number":2');
    expect([kept.items, kept.from]).toEqual([2, 1]);
  });
});

describe('RateWindow', () => {
  it('counts in whole seconds of the clock and tells how long until the next', () => {
    const clock = new Clock();
    clock.set(10_250);
    const window = new RateWindow(clock);
    window.add(3);
    expect(window.operations).toBe(3);
    expect(window.startedAt).toBe(10_000);
    expect(window.retryAfterSeconds()).toBe(1);
    clock.advance(749);
    expect(window.operations).toBe(3);
    clock.advance(1);
    expect(window.operations).toBe(0);
    clock.set(5_000); // set back: a new window, not a negative one
    expect(window.operations).toBe(0);
  });
});

describe('FaultRule', () => {
  it('skips, then fires at most count times; matches on every given field', () => {
    const rule = new FaultRule(
      'f1',
      { operation: 'publish', cache: 'c', topicPrefix: 'a-', tokenId: 'x', skip: 1, count: 2, status: 500 },
      0,
    );
    const facts = { operation: 'publish' as const, protocol: 'http' as const, cache: 'c', topic: 'a-1', tokenId: 'x' };
    expect(rule.matches(facts)).toBe(true);
    expect(rule.matches({ ...facts, protocol: 'grpc' })).toBe(true);
    expect(rule.matches({ ...facts, operation: 'subscribe' })).toBe(false);
    expect(rule.matches({ ...facts, cache: 'd' })).toBe(false);
    expect(rule.matches({ ...facts, topic: 'b-1' })).toBe(false);
    expect(rule.matches({ ...facts, tokenId: undefined })).toBe(false);
    const grpcOnly = new FaultRule('f2', { protocol: 'grpc', status: 500 }, 0);
    expect([grpcOnly.matches({ ...facts, protocol: 'grpc' }), grpcOnly.matches(facts)]).toEqual([true, false]);
    expect([rule.consider(), rule.consider(), rule.consider(), rule.consider()]).toEqual([false, true, true, false]);
    expect(rule.usedUp).toBe(true);
    expect(rule.view()).toMatchObject({ matched: 3, fired: 2, remaining: 0 });
  });

  it('follows a shared ledger: it fires when the ledger says so, and its counts only grow', () => {
    const rule = new FaultRule('f1', { status: 500, skip: 1, count: 2 }, 0);
    expect(rule.counted).toBe(true);
    expect(rule.considered({ outcome: 'passed', matched: 1, fired: 0, delivered: 0 })).toBe(false);
    expect(rule.considered({ outcome: 'fired', matched: 3, fired: 1, delivered: 0 })).toBe(true);
    rule.follow({ matched: 2, fired: 1, delivered: 0 }); // an older announcement changes nothing
    expect(rule.view()).toMatchObject({ matched: 3, fired: 1, remaining: 1 });
    expect(rule.considered({ outcome: 'refused', matched: 4, fired: 2, delivered: 0 })).toBe(false);
    expect(rule.usedUp).toBe(true);
    expect(new FaultRule('f2', { status: 500, probability: 0.5 }, 0).counted).toBe(false);
  });

  it('refuses a code that does not belong to its status', () => {
    expect(() => new FaultRule('f1', { status: 500, code: 'expired_token' }, 0)).toThrow(/answers 401, not 500/);
  });
});
