import { describe, expect, it } from 'vitest';
import type { State } from '../../openapi/generated/control-types.js';
import { PublishedSinceReads, withPublished } from '../../dashboard/state-updates.js';

// The topics table follows the event stream at once (its next number with each message), and
// leaves what it cannot know to the next read of the state.

const topic = {
  cache: 'c',
  topic: 't',
  page: 7,
  firstSequenceNumber: 1,
  lastSequenceNumber: 3,
  retainedCount: 3,
  nextSequenceNumber: 4,
  waitingSubscribers: 0,
};
const state = { topics: [topic] } as unknown as State;
const event = (sequenceNumber: number, page = 7, name = 't') => ({
  at: 0,
  cache: 'c',
  topic: name,
  page,
  sequenceNumber,
  value: { text: 'x' },
  size: 1,
  truncated: false,
});

describe('withPublished', () => {
  it("brings the topic's next number and retained range up to the message", () => {
    expect(withPublished(state, event(4)).topics[0]).toMatchObject({
      nextSequenceNumber: 5,
      lastSequenceNumber: 4,
      retainedCount: 4,
      firstSequenceNumber: 1,
    });
  });

  it('leaves the state alone for an older message, another page, or a topic not listed yet', () => {
    expect(withPublished(state, event(3))).toBe(state);
    expect(withPublished(state, event(4, 8))).toBe(state);
    expect(withPublished(state, event(1, 7, 'other'))).toBe(state);
  });
});

describe('PublishedSinceReads', () => {
  it('keeps a row a read sent before the message would take back', () => {
    const since = new PublishedSinceReads();
    // Read 1 is sent; message 4 arrives; read 1 answers what it saw before message 4.
    since.arrived(event(4), 1);
    expect(since.onto(state, 1).topics[0]).toMatchObject({ nextSequenceNumber: 5, retainedCount: 4 });
  });

  it('forgets a message once a read sent after it is shown, and counts nothing twice', () => {
    const since = new PublishedSinceReads();
    since.arrived(event(4), 1);
    const read2 = { topics: [{ ...topic, nextSequenceNumber: 5, lastSequenceNumber: 4, retainedCount: 4 }] };
    expect(since.onto(read2 as unknown as State, 2)).toBe(read2);
    // Read 1 answering late is not shown (main.ts), and the event is gone: the state stays.
    expect(since.onto(state, 1)).toBe(state);
  });

  it('keeps a bounded number of messages', () => {
    const since = new PublishedSinceReads();
    for (let n = 4; n < 2004; n++) since.arrived(event(n), 1);
    // The oldest thousand were dropped: the thousand kept bring the row to the last message.
    expect(since.onto(state, 1).topics[0]).toMatchObject({ nextSequenceNumber: 2004, retainedCount: 3 + 1000 });
  });
});
