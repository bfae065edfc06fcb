import type { State } from '../openapi/generated/control-types.js';
import type { PublishedEvent } from './feed.js';

// The state as the event stream changes it, before the next read of the whole state (which
// corrects anything this cannot know, such as a message that fell out of retention).

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

/** Published events kept while a read sent before them may still answer: at most this many. */
const KEPT_EVENTS = 1000;

/**
 * A read of the state sent before a message was published may answer after its event has
 * arrived (two connections): shown as it is, it would take the topic's row back. Each published
 * event is kept with the number of the newest read sent when it arrived, and applied again to
 * what a read answers until a read sent after it is shown (`withPublished` leaves a state that
 * already has the message alone).
 */
export class PublishedSinceReads {
  private kept: { read: number; event: PublishedEvent }[] = [];

  /** A published event arrived; `lastSent`: the number of the newest read sent by then. */
  arrived(event: PublishedEvent, lastSent: number): void {
    this.kept.push({ read: lastSent, event });
    if (this.kept.length > KEPT_EVENTS) this.kept.splice(0, this.kept.length - KEPT_EVENTS);
  }

  /** What read `read` answered, with the events that may have arrived after it was sent. */
  onto(state: State, read: number): State {
    this.kept = this.kept.filter((k) => k.read >= read);
    return this.kept.reduce((next, k) => withPublished(next, k.event), state);
  }
}
