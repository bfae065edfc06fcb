// What a subscription yields, and how each wire element moves the resume cursor
// (contract 4.2: next number = last received + 1, page = last received page).

import { decodeBase64 } from './base64.js';
import { TopicsProtocolError } from './errors.js';
import type { SubscribeElement } from './wire.js';

/** Where the next poll starts: `sequence_number` and `sequence_page` of the request. */
export interface Cursor {
  sequenceNumber: number;
  sequencePage: number;
}

/** A message: text as a string, binary as its exact bytes. */
export type MessageValue = { text: string } | { binary: Uint8Array };

export interface ItemEvent {
  kind: 'item';
  sequenceNumber: number;
  sequencePage: number;
  value: MessageValue;
}

/** The stream has a gap (missed messages, same page) or the topic was reset (new page). */
export interface DiscontinuityEvent {
  kind: 'discontinuity';
  lastTopicSequence: number;
  newTopicSequence: number;
  newSequencePage: number;
}

export type TopicEvent = ItemEvent | DiscontinuityEvent;

/** The first request: 0 and 0 ask the service for what is published next, and name the page. */
export const FIRST_CURSOR: Readonly<Cursor> = Object.freeze({ sequenceNumber: 0, sequencePage: 0 });

/** One wire element as an event, plus the cursor that follows it. */
export function toEvent(element: SubscribeElement, status: number, body: string): { event: TopicEvent; next: Cursor } {
  if ('discontinuity' in element) {
    const d = element.discontinuity;
    return {
      event: {
        kind: 'discontinuity',
        lastTopicSequence: d.last_topic_sequence,
        newTopicSequence: d.new_topic_sequence,
        newSequencePage: d.new_sequence_page,
      },
      next: { sequenceNumber: d.new_topic_sequence, sequencePage: d.new_sequence_page },
    };
  }
  const { item } = element;
  let value: MessageValue;
  if ('text' in item.value) {
    value = { text: item.value.text };
  } else {
    const bytes = decodeBase64(item.value.binary);
    if (bytes === undefined) {
      throw new TopicsProtocolError(`item ${item.topic_sequence_number}: value.binary is not base64`, status, body);
    }
    value = { binary: bytes };
  }
  return {
    event: { kind: 'item', sequenceNumber: item.topic_sequence_number, sequencePage: item.sequence_page, value },
    next: { sequenceNumber: item.topic_sequence_number + 1, sequencePage: item.sequence_page },
  };
}
