import type { EventValue } from '../events.js';
import type { MessageValue } from './message.js';

// A topic's content as plain data, whatever store holds it: what a snapshot saves and any store
// loads. Values are as the service delivers them (text, or the bytes in base64).

export interface RetainedMessage {
  sequenceNumber: number;
  value: EventValue;
}

export interface TopicContent {
  cache: string;
  topic: string;
  page: number;
  /** The number the topic's next message gets. */
  nextSequenceNumber: number;
  /** Retained messages, oldest first, numbered without gaps up to nextSequenceNumber - 1. */
  messages: RetainedMessage[];
}

/** The value a publish would have stored (base64 decoded to its bytes). */
export function messageValueOf(value: EventValue): MessageValue {
  return 'text' in value ? { text: value.text } : { binary: Buffer.from(value.binary, 'base64') };
}
