import { describe, expect, it } from 'vitest';
import { decodeElements, type MessageValue } from '../../conformance/elements.js';
import { StreamModel } from '../../conformance/model.js';

const text = (t: string): MessageValue => ({ kind: 'text', text: t });
const item = (page: number, n: number, value: unknown) => ({
  item: { sequence_page: page, topic_sequence_number: n, value },
});
const answer = (...raw: unknown[]) => decodeElements({ items: raw })!;

/** Publishes one after another, each acknowledged before the next is sent. */
function publishAll(model: StreamModel, values: MessageValue[]) {
  return values.map((value, i) => {
    const record = model.publishStarted(value, i === values.length - 1 ? 'sentinel' : undefined);
    model.publishEnded(record, 'acked', 100 + i);
    return record;
  });
}

/** The subscriber's first answer: a warm-up message published just before. */
function join(model: StreamModel, subscriber: string) {
  const warm = model.publishStarted(text('warm'), 'warm-up');
  model.publishEnded(warm, 'acked');
  model.received(subscriber, { n: 0, page: 0 }, answer(item(7, 1, { text: 'warm' })), 1);
}

function rulesOf(model: StreamModel) {
  return model.check().map((v) => v.rule);
}

describe('StreamModel', () => {
  it('passes a subscriber that joined first and received everything in order', () => {
    const model = new StreamModel();
    model.addSubscriber('s1');
    join(model, 's1');
    publishAll(model, [text('a'), text('b'), text('end')]);
    model.received('s1', { n: 2, page: 7 }, answer(item(7, 2, { text: 'a' }), item(7, 3, { text: 'b' })), 2);
    model.received('s1', { n: 4, page: 7 }, answer(item(7, 4, { text: 'end' })), 3);
    model.finish('s1');
    expect(model.check()).toEqual([]);
  });

  it('reports a message published after the subscriber joined that never arrived', () => {
    const model = new StreamModel();
    model.addSubscriber('s1');
    join(model, 's1');
    publishAll(model, [text('a'), text('b'), text('end')]);
    model.received('s1', { n: 2, page: 7 }, answer(item(7, 2, { text: 'a' }), item(7, 3, { text: 'end' })), 2);
    model.finish('s1');
    expect(rulesOf(model)).toEqual(['stream.no-loss']);
  });

  it('excuses losses announced by a forward discontinuity', () => {
    const model = new StreamModel();
    model.addSubscriber('s1');
    join(model, 's1');
    publishAll(model, [text('a'), text('b'), text('end')]);
    const skip = { discontinuity: { last_topic_sequence: 1, new_topic_sequence: 3, new_sequence_page: 7 } };
    model.received('s1', { n: 2, page: 7 }, answer(skip, item(7, 3, { text: 'b' }), item(7, 4, { text: 'end' })), 2);
    model.finish('s1');
    expect(model.check()).toEqual([]);
  });

  it('reports a subscriber that never saw the sentinel', () => {
    const model = new StreamModel();
    model.addSubscriber('s1');
    publishAll(model, [text('end')]);
    expect(rulesOf(model)).toEqual(['stream.no-loss']);
  });

  it('reports the same (page, number) carrying two values', () => {
    const model = new StreamModel();
    model.addSubscriber('s1');
    model.addSubscriber('s2');
    publishAll(model, [text('a'), text('end')]);
    model.received('s1', { n: 0, page: 0 }, answer(item(7, 1, { text: 'a' }), item(7, 2, { text: 'end' })), 1);
    model.received('s2', { n: 0, page: 0 }, answer(item(7, 1, { text: 'end' }), item(7, 2, { text: 'end' })), 2);
    model.finish('s1');
    model.finish('s2');
    expect(rulesOf(model)).toContain('stream.same-order-for-all');
  });

  it('reports one message delivered under two numbers', () => {
    const model = new StreamModel();
    model.addSubscriber('s1');
    publishAll(model, [text('a'), text('end')]);
    model.received(
      's1',
      { n: 0, page: 0 },
      answer(item(7, 1, { text: 'a' }), item(7, 2, { text: 'a' }), item(7, 3, { text: 'end' })),
      1,
    );
    model.finish('s1');
    expect(rulesOf(model)).toEqual(['stream.no-duplicates']);
  });

  it('allows a value delivered twice when it was published twice', () => {
    const model = new StreamModel();
    model.addSubscriber('s1');
    publishAll(model, [text('a'), text('a'), text('end')]);
    model.received(
      's1',
      { n: 0, page: 0 },
      answer(item(7, 1, { text: 'a' }), item(7, 2, { text: 'a' }), item(7, 3, { text: 'end' })),
      1,
    );
    model.finish('s1');
    expect(model.check()).toEqual([]);
  });

  it('reports a value that was never published, once (not also as a loss)', () => {
    const model = new StreamModel();
    model.addSubscriber('s1');
    join(model, 's1');
    publishAll(model, [text('héllo'), text('end')]);
    model.received('s1', { n: 2, page: 7 }, answer(item(7, 2, { text: 'hÃ©llo' }), item(7, 3, { text: 'end' })), 2);
    model.finish('s1');
    expect(rulesOf(model)).toEqual(['stream.values-byte-exact']);
  });

  it('compares binary values byte for byte', () => {
    const model = new StreamModel();
    model.addSubscriber('s1');
    join(model, 's1');
    const record = model.publishStarted({ kind: 'binary', bytes: new Uint8Array([0, 1, 2]) });
    model.publishEnded(record, 'acked');
    publishAll(model, [text('end')]);
    model.received(
      's1',
      { n: 2, page: 7 },
      answer(item(7, 2, { binary: Buffer.from([0, 1, 3]).toString('base64') }), item(7, 3, { text: 'end' })),
      2,
    );
    model.finish('s1');
    expect(rulesOf(model)).toEqual(['stream.values-byte-exact']);
  });

  it('reports a message acknowledged before another was sent yet numbered after it', () => {
    const model = new StreamModel();
    model.addSubscriber('s1');
    publishAll(model, [text('first'), text('second'), text('end')]);
    model.received(
      's1',
      { n: 0, page: 0 },
      answer(item(7, 1, { text: 'second' }), item(7, 2, { text: 'first' }), item(7, 3, { text: 'end' })),
      1,
    );
    model.finish('s1');
    expect(rulesOf(model)).toEqual(['stream.publish-order']);
  });

  it('allows either order for publishes that overlapped in time', () => {
    const model = new StreamModel();
    model.addSubscriber('s1');
    const a = model.publishStarted(text('a'));
    const b = model.publishStarted(text('b'));
    model.publishEnded(a, 'acked');
    model.publishEnded(b, 'acked');
    publishAll(model, [text('end')]);
    model.received(
      's1',
      { n: 0, page: 0 },
      answer(item(7, 1, { text: 'b' }), item(7, 2, { text: 'a' }), item(7, 3, { text: 'end' })),
      1,
    );
    model.finish('s1');
    expect(model.check()).toEqual([]);
  });

  it('excuses what was published before a reset when the page changes', () => {
    const model = new StreamModel();
    model.addSubscriber('s1');
    join(model, 's1');
    publishAll(model, [text('lost with the old page')]);
    const reset = model.resetStarted();
    model.resetEnded(reset);
    const after = publishAll(model, [text('end')]);
    expect(after).toHaveLength(1);
    const newPage = { discontinuity: { last_topic_sequence: 1, new_topic_sequence: 1, new_sequence_page: 9 } };
    model.received('s1', { n: 2, page: 7 }, answer(newPage, item(9, 1, { text: 'end' })), 2);
    model.finish('s1');
    expect(model.check()).toEqual([]);
  });

  it('excuses what a second reset took when its answer came back after the discontinuity (a slow link)', () => {
    const model = new StreamModel();
    model.addSubscriber('s1');
    join(model, 's1');
    const first = model.resetStarted();
    model.resetEnded(first);
    publishAll(model, [text('on the second page, taken by the next reset')]);
    const second = model.resetStarted();
    const newPage = { discontinuity: { last_topic_sequence: 1, new_topic_sequence: 1, new_sequence_page: 11 } };
    model.received('s1', { n: 2, page: 7 }, answer(newPage), 2);
    model.resetEnded(second);
    publishAll(model, [text('end')]);
    model.received('s1', { n: 1, page: 11 }, answer(item(11, 1, { text: 'end' })), 3);
    model.finish('s1');
    expect(model.check()).toEqual([]);
  });

  it('still requires what was published after the reset', () => {
    const model = new StreamModel();
    model.addSubscriber('s1');
    join(model, 's1');
    const reset = model.resetStarted();
    model.resetEnded(reset);
    publishAll(model, [text('on the new page'), text('end')]);
    const newPage = { discontinuity: { last_topic_sequence: 1, new_topic_sequence: 2, new_sequence_page: 9 } };
    model.received('s1', { n: 2, page: 7 }, answer(newPage, item(9, 2, { text: 'end' })), 2);
    model.finish('s1');
    expect(rulesOf(model)).toEqual(['stream.no-loss']);
  });
});
