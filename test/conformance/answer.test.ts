import { describe, expect, it } from 'vitest';
import { advance, checkAnswer } from '../../conformance/answer.js';
import { decodeElements, type Element } from '../../conformance/elements.js';

const item = (page: number, n: number, text = `m${n}`) => ({
  item: { sequence_page: page, topic_sequence_number: n, value: { text } },
});
const gap = (last: number, next: number, page: number) => ({
  discontinuity: { last_topic_sequence: last, new_topic_sequence: next, new_sequence_page: page },
});
const elements = (...raw: unknown[]): Element[] => decodeElements({ items: raw })!;
const rules = (cursor: { n: number; page: number }, ...raw: unknown[]) =>
  checkAnswer(cursor, elements(...raw)).map((p) => p.rule);

describe('checkAnswer', () => {
  it('accepts a contiguous answer from the cursor', () => {
    expect(rules({ n: 3, page: 9 }, item(9, 3), item(9, 4), item(9, 5))).toEqual([]);
  });

  it('lets a first request start anywhere, and page 0 match any page', () => {
    expect(rules({ n: 0, page: 0 }, item(9, 42))).toEqual([]);
    expect(rules({ n: 4, page: 0 }, item(12, 4))).toEqual([]);
    expect(rules({ n: 4, page: 0 }, item(12, 5))).toEqual(['stream.advance-no-skip']);
  });

  it('reports a repeat and a skip at the start of an answer', () => {
    expect(rules({ n: 3, page: 9 }, item(9, 2), item(9, 3))).toEqual(['stream.advance-no-repeat']);
    expect(rules({ n: 3, page: 9 }, item(9, 5))).toEqual(['stream.advance-no-skip']);
  });

  it('accepts a discontinuity before the item it announces', () => {
    expect(rules({ n: 3, page: 9 }, gap(2, 7, 9), item(9, 7))).toEqual([]);
    expect(rules({ n: 3, page: 9 }, gap(2, 1, 11), item(11, 1), item(11, 2))).toEqual([]);
    expect(rules({ n: 300, page: 5 }, gap(299, 4, 9))).toEqual([]);
  });

  it('reports a page change with no discontinuity', () => {
    expect(rules({ n: 3, page: 9 }, item(11, 1))).toEqual(['stream.page-change-discontinuity']);
    expect(rules({ n: 3, page: 9 }, item(9, 3), item(11, 1))).toEqual(['stream.page-change-discontinuity']);
  });

  it('tells numbering faults from gaps within an answer', () => {
    expect(rules({ n: 3, page: 9 }, item(9, 3), item(9, 3))).toEqual(['stream.contiguous-numbers']);
    expect(rules({ n: 3, page: 9 }, item(9, 3), item(9, 2))).toEqual(['stream.contiguous-numbers']);
    expect(rules({ n: 3, page: 9 }, item(9, 3), item(9, 5))).toEqual(['stream.discontinuity-before-gap']);
  });

  it('reports a discontinuity that does not match the next item', () => {
    expect(rules({ n: 3, page: 9 }, gap(2, 7, 9), item(9, 8))).toEqual(['discontinuity.next-item-matches']);
  });

  it('reports a discontinuity standing after the item it announces, once', () => {
    expect(rules({ n: 3, page: 9 }, item(9, 3), item(9, 7), gap(3, 7, 9), item(9, 8))).toEqual([
      'discontinuity.precedes-item',
    ]);
  });

  it('reports elements with both or neither member', () => {
    const both = { ...item(9, 3), ...gap(2, 3, 9) };
    expect(rules({ n: 3, page: 9 }, both)).toEqual(['subscribe.element-exactly-one-member']);
    expect(rules({ n: 3, page: 9 }, {})).toEqual(['subscribe.element-exactly-one-member']);
  });
});

describe('advance', () => {
  it('moves to last + 1 on the last page, or to where a trailing discontinuity points', () => {
    expect(advance({ n: 0, page: 0 }, elements(item(9, 3), item(9, 4)))).toEqual({ n: 5, page: 9 });
    expect(advance({ n: 5, page: 9 }, elements(gap(4, 1, 12)))).toEqual({ n: 1, page: 12 });
    expect(advance({ n: 5, page: 9 }, [])).toEqual({ n: 5, page: 9 });
  });
});

describe('decodeElements', () => {
  it('decodes standard base64 binary values and keeps other strings opaque', () => {
    const [good, bad] = decodeElements({
      items: [
        { item: { sequence_page: 1, topic_sequence_number: 1, value: { binary: 'AP8Q' } } },
        { item: { sequence_page: 1, topic_sequence_number: 2, value: { binary: '00ff10' } } },
      ],
    })!;
    expect(good).toMatchObject({ kind: 'item', value: { kind: 'binary', bytes: new Uint8Array([0, 255, 16]) } });
    expect(bad).toMatchObject({ kind: 'item', value: { kind: 'opaque' } });
  });

  it('has no elements without an items array', () => {
    expect(decodeElements({ messages: [] })).toBeUndefined();
  });
});
