// A subscription: long-polls in a loop, yields one event per wire element, keeps the resume
// cursor, retries what may pass (429, 5xx, network) and ends quietly on abort.

import { isRetryableStatus, retryDelayMs, retryPolicy, type RetryOptions, type RetryPolicy } from './backoff.js';
import { TopicsHttpError, TopicsProtocolError } from './errors.js';
import { FIRST_CURSOR, toEvent, type Cursor, type TopicEvent } from './events.js';
import type { PollResult } from './poll.js';

export interface SubscribeOptions {
  /** Ends the subscription: the iterator returns, the poll in flight is aborted. */
  signal?: AbortSignal;
  /** Where to start; default `{ sequenceNumber: 0, sequencePage: 0 }` (what is published next). */
  from?: Cursor;
  retry?: RetryOptions;
}

export type PollFn = (cursor: Cursor, signal: AbortSignal) => Promise<PollResult>;

/**
 * The async iterator `TopicsClient.subscribe` returns. `return()` (what `break` calls) aborts
 * a poll in flight at once, instead of waiting for the long-poll to end.
 */
export class Subscription implements AsyncIterableIterator<TopicEvent, undefined> {
  readonly #controller = new AbortController();
  readonly #generator: AsyncGenerator<TopicEvent, undefined>;
  readonly #unlink: () => void;
  #cursor: Cursor;

  constructor(poll: PollFn, options: SubscribeOptions = {}) {
    this.#cursor = { ...(options.from ?? FIRST_CURSOR) };
    const outer = options.signal;
    const abort = (): void => this.#controller.abort();
    if (outer?.aborted) abort();
    outer?.addEventListener('abort', abort, { once: true });
    this.#unlink = () => outer?.removeEventListener('abort', abort);
    this.#generator = this.#run(poll, retryPolicy(options.retry));
  }

  /** The cursor after the last event handed out: persist it to resume later with `from`. */
  get cursor(): Cursor {
    return { ...this.#cursor };
  }

  next(): Promise<IteratorResult<TopicEvent, undefined>> {
    return this.#generator.next();
  }

  async return(): Promise<IteratorResult<TopicEvent, undefined>> {
    this.#controller.abort();
    this.#unlink();
    return this.#generator.return(undefined);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async *#run(poll: PollFn, policy: RetryPolicy): AsyncGenerator<TopicEvent, undefined> {
    const signal = this.#controller.signal;
    let failures = 0;
    try {
      while (!signal.aborted) {
        let result: PollResult;
        try {
          result = await poll(this.#cursor, signal);
        } catch (error) {
          if (signal.aborted) return undefined;
          if (!isRetryable(error) || failures >= policy.maxRetries) throw error;
          failures += 1;
          const retryAfter = error instanceof TopicsHttpError ? error.retryAfterSeconds : undefined;
          // A sleep that rejects on abort (against its contract) still ends the loop quietly.
          await policy.sleep(retryDelayMs(policy, failures, retryAfter), signal).catch((sleepError: unknown) => {
            if (!signal.aborted) throw sleepError;
          });
          continue;
        }
        failures = 0;
        // An empty `items` is a long-poll timeout: the loop polls again with the same cursor.
        for (const element of result.response.items) {
          const { event, next } = toEvent(element, result.status, result.body);
          if (signal.aborted) return undefined;
          this.#cursor = next;
          yield event;
        }
      }
      return undefined;
    } finally {
      this.#unlink();
    }
  }
}

/** A refusal of the request itself (400, 401, 403, 404) or a broken body will not pass. */
function isRetryable(error: unknown): boolean {
  if (error instanceof TopicsHttpError) return isRetryableStatus(error.status);
  return !(error instanceof TopicsProtocolError);
}
