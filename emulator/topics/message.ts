// A published message as stored: its subscribe-response element, serialised once at
// publish time so that every delivery (and every fan-out) reuses the same string.

export type MessageValue = { text: string } | { binary: Uint8Array };

export interface StoredMessage {
  /** JSON of `{"item": {...}}`, ready to join into an `items` array. */
  readonly element: string;
  /** Size of the published body, for state and memory accounting. */
  readonly bytes: number;
}

export function storeMessage(page: number, seq: number, value: MessageValue): StoredMessage {
  const wireValue =
    'text' in value ? { text: value.text } : { binary: Buffer.from(value.binary.buffer, value.binary.byteOffset, value.binary.byteLength).toString('base64') };
  const bytes = 'text' in value ? Buffer.byteLength(value.text) : value.binary.byteLength;
  return {
    element: JSON.stringify({ item: { sequence_page: page, topic_sequence_number: seq, value: wireValue } }),
    bytes,
  };
}
