import { describe, expect, it } from 'vitest';
import type { State } from '../../openapi/generated/control-types.js';
import { withPublished } from '../../dashboard/state-updates.js';

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
