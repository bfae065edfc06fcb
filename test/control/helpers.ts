import { expect, vi } from 'vitest';
import { startEmulator, type EmulatorSettings, type RunningEmulator } from '../../emulator/index.js';

// Drives an in-process emulator over HTTP on 127.0.0.1, as a client under test would.

export const CACHE = 'default-cache';

export interface Items {
  items: (
    | { item: { sequence_page: number; topic_sequence_number: number; value: { text?: string } } }
    | { discontinuity: { last_topic_sequence: number; new_topic_sequence: number; new_sequence_page: number } }
  )[];
}

export async function start(options: Partial<EmulatorSettings> = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, logLevel: 'silent', ...options });
}

export function clientOf(emulator: RunningEmulator) {
  const topicUrl = (topic: string, cache = CACHE) =>
    `${emulator.url}/topics/${encodeURIComponent(cache)}/${encodeURIComponent(topic)}`;
  return {
    publish(topic: string, text = 'm', options: { token?: string; cache?: string; signal?: AbortSignal } = {}) {
      return fetch(topicUrl(topic, options.cache), {
        method: 'POST',
        headers: { authorization: options.token ?? emulator.apiKey, 'content-type': 'text/plain' },
        body: text,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    },
    subscribe(
      topic: string,
      cursor: { seq?: number; page?: number } = {},
      options: { token?: string; signal?: AbortSignal } = {},
    ) {
      const query = `?sequence_number=${cursor.seq ?? 0}&sequence_page=${cursor.page ?? 0}`;
      return fetch(`${topicUrl(topic)}${query}`, {
        headers: { authorization: options.token ?? emulator.apiKey },
        ...(options.signal ? { signal: options.signal } : {}),
      });
    },
    control(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const json = body !== undefined && typeof body !== 'string';
      return fetch(`${emulator.url}/_emulator${path}`, {
        method,
        headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body === undefined ? {} : { body: json ? JSON.stringify(body) : body }),
      });
    },
  };
}

export async function itemsOf(response: Response): Promise<Items> {
  expect(response.status).toBe(200);
  return (await response.json()) as Items;
}

/** The numbers of the items of a subscribe answer, discontinuities shown as 'd<new>@<page>'. */
export function numbersOf(body: Items): (number | string)[] {
  return body.items.map((e) =>
    'item' in e
      ? e.item.topic_sequence_number
      : `d${e.discontinuity.new_topic_sequence}@${e.discontinuity.new_sequence_page}`,
  );
}

/** Waits until `n` subscribe requests are parked (the emulator's own state says so). */
export async function waitForWaiting(emulator: RunningEmulator, n: number): Promise<void> {
  await vi.waitFor(() => expect(emulator.state().waitingSubscribers).toHaveLength(n), { timeout: 5000, interval: 2 });
}

/** Publishes `n` messages numbered from the topic's next number. */
export async function publishMany(emulator: RunningEmulator, topic: string, n: number): Promise<void> {
  const client = clientOf(emulator);
  for (let i = 0; i < n; i++) expect((await client.publish(topic, `m${i}`)).status).toBe(204);
}
