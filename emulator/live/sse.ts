// The server-sent events wire format (WHATWG HTML, "Server-sent events"), as pure functions:
// a message is `id:`, `event:` and `data:` lines ended by a blank line; a line starting with `:`
// is a comment (our heartbeat); `retry:` tells the client how long to wait before reconnecting.
// Data is one line of JSON, so no payload can break the framing (JSON escapes every newline).

export interface SseMessage {
  id: number;
  event: string;
  data: unknown;
}

export function sseMessage({ id, event, data }: SseMessage): string {
  return sseEncoded(id, event, JSON.stringify(data));
}

/** A message whose data is already JSON (encoded once for every reader). */
export function sseEncoded(id: number, event: string, json: string): string {
  return `id: ${id}\nevent: ${event}\ndata: ${json}\n\n`;
}

export function sseComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
}

export function sseRetry(ms: number): string {
  return `retry: ${Math.max(0, Math.floor(ms))}\n\n`;
}
