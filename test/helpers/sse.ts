import { request, type IncomingMessage } from 'node:http';

// A raw reader of GET /_emulator/events, as a dashboard or `curl -N` reads it.

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comment?: string;
}

/** Splits raw SSE text into frames (blank-line separated), keeping every field as sent. */
export function framesOf(text: string): SseFrame[] {
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      const frame: SseFrame = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) frame.comment = line.slice(1).trim();
        else {
          const colon = line.indexOf(':');
          (frame as Record<string, string>)[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, '');
        }
      }
      return frame;
    });
}

/** A raw reader of GET /_emulator/events: every byte received, and a way to wait for a frame. */
export async function openStream(url: string, headers: Record<string, string> = {}) {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(`${url}/_emulator/events`, { headers }, resolve);
    req.on('error', reject);
    req.end();
  });
  let raw = '';
  const waiters = new Set<() => void>();
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    raw += chunk;
    for (const waiter of waiters) waiter();
  });
  const frames = () => framesOf(raw.slice(0, raw.lastIndexOf('\n\n') + 2));
  return {
    response,
    raw: () => raw,
    frames,
    /** Resolves with the first frame that matches, failing after `timeoutMs`. */
    next(match: (frame: SseFrame) => boolean, timeoutMs = 2000): Promise<SseFrame> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = frames().find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching frame in ${JSON.stringify(raw)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => response.destroy(),
  };
}
