// Server-sent events, parsed from the bytes of a fetch body (WHATWG HTML, "Server-sent events").
// The dashboard reads the stream with fetch rather than EventSource, because EventSource cannot
// send the admin key header. Pure: feed it text chunks, it returns the complete messages.

export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
}

export class SseParser {
  private buffer = '';
  /** The last `retry:` advice, in milliseconds. */
  retryMs: number | undefined;

  push(chunk: string): SseEvent[] {
    this.buffer += chunk.replace(/\r\n?/g, '\n');
    const events: SseEvent[] = [];
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) !== -1) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event = this.parseBlock(block);
      if (event) events.push(event);
    }
    return events;
  }

  private parseBlock(block: string): SseEvent | undefined {
    let id: string | undefined;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    }
    return data.length ? { id, event, data: data.join('\n') } : undefined;
  }
}
