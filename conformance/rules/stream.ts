// The stream properties, checked by the stream model over generated scenarios
// (conformance/stream/): publishes of any text or bytes, alone and concurrently, while
// subscribers join, rewind, reconnect and resume from stale pages.
import type { StreamRule } from './types.js';

export const streamRules: StreamRule[] = [
  {
    id: 'stream.same-order-for-all',
    kind: 'stream',
    level: 'documented',
    title: 'A (page, number) names one message: every subscriber and every re-read sees the same value there',
    source:
      '§2 topic_sequence_number "Sequence number of the message within the page"; sequence_page "Identifies one instance of the topic"',
  },
  {
    id: 'stream.publish-order',
    kind: 'stream',
    level: 'documented',
    title: 'A message acknowledged (204) before another is sent comes before it',
    source: '§4.1 "Response on success: status 204, empty body; the message has been published to the topic."',
  },
  {
    id: 'stream.no-loss',
    kind: 'stream',
    level: 'documented',
    title:
      'A subscriber following the contract receives every message published after its first answer, unless a discontinuity says it missed some',
    source:
      '§1 "Every message received carries a sequence number and a sequence page, so that a client can resume where it stopped and detect gaps."',
  },
  {
    id: 'stream.no-duplicates',
    kind: 'stream',
    level: 'documented',
    title: 'One publish is one message: it is never delivered under two numbers',
    source: '§1 "A client publishes one message per POST request."',
  },
  {
    id: 'stream.values-byte-exact',
    kind: 'stream',
    level: 'documented',
    title: 'Values come back exactly as published: text as value.text, binary byte for byte',
    source:
      '§2 Message "Published as the raw request body. Either text (UTF-8) or binary data."; value "For a text message holds the member `text` (string)."',
  },
];
