import type { State } from '../openapi/generated/control-types.js';
import type { PublishedEvent } from './feed.js';

// The state as the event stream changes it, before the next read of the whole state (which
// corrects anything this cannot know, such as a message that fell out of retention). Pure.

/** The state with a published message's topic brought up to it: its next number and retained range. */
export function withPublished(state: State, event: PublishedEvent): State {
  const index = state.topics.findIndex((t) => t.cache === event.cache && t.topic === event.topic);
  const topic = state.topics[index];
  // A topic not listed yet, another page, or an event older than the state: the next read says.
  if (topic === undefined || topic.page !== event.page || event.sequenceNumber < topic.nextSequenceNumber) return state;
  const topics = [...state.topics];
  topics[index] = {
    ...topic,
    nextSequenceNumber: event.sequenceNumber + 1,
    firstSequenceNumber: topic.firstSequenceNumber ?? event.sequenceNumber,
    lastSequenceNumber: event.sequenceNumber,
    retainedCount: topic.retainedCount + 1,
  };
  return { ...state, topics };
}
