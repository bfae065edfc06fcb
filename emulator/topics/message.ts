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
  // Built around JSON.stringify of the value alone: the same JSON as stringifying the whole
  // element (numbers are safe integers), at a fraction of the cost on the publish path.
  const head = `{"item":{"sequence_page":${page},"topic_sequence_number":${seq},"value":`;
  if ('text' in value) return { element: `${head}{"text":${JSON.stringify(value.text)}}}}`, bytes: Buffer.byteLength(value.text) };
  const base64 = Buffer.from(value.binary.buffer, value.binary.byteOffset, value.binary.byteLength).toString('base64');
  return { element: `${head}{"binary":"${base64}"}}}`, bytes: value.binary.byteLength };
}
