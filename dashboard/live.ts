import { adminKeyHeaders } from './admin-key.js';
import { ApiError } from './api.js';
import { SseParser, type SseEvent } from './sse-parser.js';

// The dashboard's connection to GET /_emulator/events: read with fetch (the admin key goes in a
// header, which EventSource cannot send), reconnected after the server's `retry:` advice, backing
// off to 5 s while the emulator is down, so a restarted emulator is picked up without a reload.

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'needs-admin-key';

export interface LiveHandlers {
  event(event: SseEvent): void;
  status(status: LiveStatus): void;
}

const MAX_BACKOFF_MS = 5000;

export class LiveConnection {
  private abort: AbortController | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private failures = 0;

  constructor(private readonly handlers: LiveHandlers) {}

  start(): void {
    this.stopped = false;
    clearTimeout(this.retryTimer);
    this.abort?.abort();
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.abort?.abort();
  }

  private async run(): Promise<void> {
    const abort = (this.abort = new AbortController());
    const parser = new SseParser();
    this.handlers.status(this.failures === 0 ? 'connecting' : 'reconnecting');
    try {
      const response = await fetch('/_emulator/events', {
        headers: { accept: 'text/event-stream', ...adminKeyHeaders() },
        signal: abort.signal,
        cache: 'no-store',
      });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
        throw new ApiError(response.status, body.code, body.message ?? `HTTP ${response.status}`);
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const event of parser.push(value)) {
          if (event.event === 'hello') {
            this.failures = 0;
            this.handlers.status('live');
          }
          this.handlers.event(event);
        }
      }
    } catch (error) {
      if (error instanceof ApiError && error.needsAdminKey) {
        this.handlers.status('needs-admin-key');
        return;
      }
      // aborted, refused (emulator down), or cut: reconnect below
    }
    if (this.stopped || abort.signal.aborted) return;
    this.failures += 1;
    this.handlers.status('reconnecting');
    const wait = Math.min(MAX_BACKOFF_MS, (parser.retryMs ?? 1000) * Math.min(this.failures, 5));
    this.retryTimer = setTimeout(() => void this.run(), wait);
  }
}
