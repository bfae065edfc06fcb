// A typed client for the Topics HTTP API, built only on `fetch` so that it runs in Node 20+,
// browsers and edge runtimes. It knows a base URL and a token, nothing of the emulator, so it
// works the same against the live service.

import { httpErrorFrom } from './errors.js';
import { FIRST_CURSOR, type Cursor } from './events.js';
import { pollOnce } from './poll.js';
import { Subscription, type SubscribeOptions } from './subscribe.js';
import { createTransport, type TopicsClientOptions, type Transport } from './transport.js';
import type { SubscribeResponse } from './wire.js';

export type { RetryOptions, Sleep } from './backoff.js';
export { abortableSleep } from './backoff.js';
export { TopicsHttpError, TopicsProtocolError } from './errors.js';
export type { Cursor, DiscontinuityEvent, ItemEvent, MessageValue, TopicEvent } from './events.js';
export { Subscription, type SubscribeOptions } from './subscribe.js';
export type { TopicsClientOptions } from './transport.js';
export type { Discontinuity, Item, SubscribeElement, SubscribeResponse, Value } from './wire.js';

export interface PublishOptions {
  signal?: AbortSignal;
  /** Overrides the content type chosen from the value's type (e.g. `application/json`). */
  contentType?: string;
}

export interface PollOptions {
  signal?: AbortSignal;
}

export class TopicsClient {
  readonly #transport: Transport;

  constructor(options: TopicsClientOptions) {
    this.#transport = createTransport(options);
  }

  /**
   * Publishes one message: a string as UTF-8 text, bytes as binary. Resolves on success;
   * throws `TopicsHttpError` otherwise. Not retried: a publish that failed after reaching
   * the service may have been published, and only the caller knows if a duplicate is harmless.
   */
  async publish(cache: string, topic: string, value: string | Uint8Array, options: PublishOptions = {}): Promise<void> {
    const isText = typeof value === 'string';
    const contentType = options.contentType ?? (isText ? 'text/plain;charset=utf-8' : 'application/octet-stream');
    const response = await this.#transport.send('POST', cache, topic, {
      headers: { 'content-type': contentType },
      // A view over a larger or shared buffer is copied so that exactly its bytes are sent.
      body: isText ? value : new Uint8Array(value),
      signal: options.signal,
    });
    if (!response.ok) throw await httpErrorFrom(response);
    // Reading the (empty) body frees the connection for reuse.
    await response.arrayBuffer();
  }

  /**
   * One long-poll request, as on the wire: `binary` values stay base64. Without a cursor it
   * is a first request (`sequence_number=0&sequence_page=0`). Not retried.
   */
  async poll(cache: string, topic: string, cursor?: Cursor, options: PollOptions = {}): Promise<SubscribeResponse> {
    const from = cursor ?? FIRST_CURSOR;
    const { response } = await pollOnce(this.#transport, cache, topic, from, options.signal);
    return response;
  }

  /**
   * Every message and discontinuity of a topic, in order, until `options.signal` fires or the
   * loop is left. Resumes with last + 1 and the last page; retries 429, 5xx and network
   * errors with backoff (Retry-After honoured); throws other failures.
   */
  subscribe(cache: string, topic: string, options: SubscribeOptions = {}): Subscription {
    return new Subscription((cursor, signal) => pollOnce(this.#transport, cache, topic, cursor, signal), options);
  }
}
