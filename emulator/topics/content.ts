import type { EventValue } from '../events.js';
import type { MessageValue } from './message.js';

// A topic's content as plain data, whatever store holds it: what a snapshot saves and any store
// loads (openapi/control.yaml `SnapshotTopic`). Values are as the service delivers them (text,
// or the bytes in base64); messages are oldest first, numbered without gaps up to
// nextSequenceNumber - 1.

export type {
  SnapshotMessage as RetainedMessage,
  SnapshotTopic as TopicContent,
} from '../../openapi/generated/control-types.js';

/** The value a publish would have stored (base64 decoded to its bytes). */
export function messageValueOf(value: EventValue): MessageValue {
  return 'text' in value ? { text: value.text } : { binary: Buffer.from(value.binary, 'base64') };
}
