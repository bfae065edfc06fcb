import { expect } from 'vitest';
import { startEmulator, type EmulatorSettings, type RunningEmulator } from '../../emulator/index.js';
import { contractProblem } from './contract.js';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** A started emulator plus request helpers that check every reply against the document. */
export interface TestEmulator {
  emulator: RunningEmulator;
  url: string;
  key: string;
  publish(
    cache: string,
    topic: string,
    body: string | Uint8Array,
    init?: { contentType?: string | null; headers?: Record<string, string>; query?: string },
  ): Promise<Reply>;
  subscribe(
    cache: string,
    topic: string,
    cursor?: { seq?: number; page?: number },
    init?: { headers?: Record<string, string>; query?: string; signal?: AbortSignal },
  ): Promise<Reply>;
  close(): Promise<void>;
}

async function toReply(response: Response, operationId: string): Promise<Reply> {
  const text = await response.text();
  const problem = contractProblem(operationId, response.status, response.headers.get('content-type'), text);
  expect(problem, `${operationId} ${response.status} ${text}`).toBeUndefined();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}

export async function testEmulator(options: Partial<EmulatorSettings> = {}): Promise<TestEmulator> {
  const emulator = await startEmulator({ port: 0, logLevel: 'silent', ...options });
  const { url, apiKey: key } = emulator;
  const topicUrl = (cache: string, topic: string, query = '') =>
    `${url}/topics/${encodeURIComponent(cache)}/${encodeURIComponent(topic)}${query ? `?${query}` : ''}`;
  return {
    emulator,
    url,
    key,
    async publish(cache, topic, body, init = {}) {
      const headers: Record<string, string> = { ...(init.headers ?? { authorization: key }) };
      const contentType =
        init.contentType === undefined
          ? typeof body === 'string'
            ? 'text/plain'
            : 'application/octet-stream'
          : init.contentType;
      if (contentType !== null) headers['content-type'] = contentType;
      const response = await fetch(topicUrl(cache, topic, init.query), {
        method: 'POST',
        headers,
        body: body as BodyInit,
      });
      return toReply(response, 'publish');
    },
    async subscribe(cache, topic, cursor = {}, init = {}) {
      const params = new URLSearchParams();
      if (cursor.seq !== undefined) params.set('sequence_number', String(cursor.seq));
      if (cursor.page !== undefined) params.set('sequence_page', String(cursor.page));
      const query = [params.toString(), init.query].filter(Boolean).join('&');
      const headers = init.headers ?? { authorization: key };
      const response = await fetch(topicUrl(cache, topic, query), {
        headers,
        ...(init.signal ? { signal: init.signal } : {}),
      });
      return toReply(response, 'subscribe');
    },
    close: () => emulator.close(),
  };
}

/** Resolves once `condition` holds, checking after each turn of the event loop; fails after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
