import type { Dispatcher } from 'undici';
import { nowMs } from '../clock.js';
import { readPage, subscribePath, type Cursor, type SubscriberPage } from './subscriber-page.js';

export interface SubscriberOptions {
  cacheName: string;
  topicName: string;
  headers: Record<string, string>;
  /** After a delivery, poll again from the next sequence number; false: one request only. */
  follow: boolean;
  isClosing(): boolean;
  /** Texts delivered by one response and when it was read (nowMs()). */
  onTexts(texts: string[], at: number): void;
  /** With follow: wait for this before polling again (for example, for a fan-out to finish). */
  beforeNextPoll?(texts: string[]): Promise<void>;
  onStatus?(status: number): void;
  onError(message: string): void;
}

/**
 * One long-polling subscriber, as a client of the real service would run it: poll, read the
 * items, advance the cursor, poll again. It stops at the first failure, so a broken server shows
 * as errors rather than as a hot loop of retries.
 */
export async function runSubscriber(dispatcher: Dispatcher, options: SubscriberOptions): Promise<void> {
  const cursor: Cursor = { sequenceNumber: 0, sequencePage: 0 };
  while (!options.isClosing()) {
    try {
      const response = await dispatcher.request({
        path: subscribePath(options.cacheName, options.topicName, cursor),
        method: 'GET',
        headers: options.headers,
      });
      const body = await response.body.text();
      const at = nowMs();
      options.onStatus?.(response.statusCode);
      if (response.statusCode !== 200) {
        options.onError(`status ${response.statusCode}: ${body.slice(0, 200)}`);
        return;
      }
      const texts = readPage(JSON.parse(body) as SubscriberPage, cursor);
      options.onTexts(texts, at);
      if (options.follow && options.beforeNextPoll !== undefined) await options.beforeNextPoll(texts);
    } catch (error) {
      if (!options.isClosing()) options.onError(error instanceof Error ? error.message : String(error));
      return;
    }
    if (!options.follow) return;
  }
}
