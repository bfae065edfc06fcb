import { expect } from 'vitest';

// One publish/subscribe round trip over raw HTTP, shared by the package and container tests:
// both only know a base URL and an API key, as a user's test would.

interface SubscribeElement {
  item?: { sequence_page: number; topic_sequence_number: number; value: { text?: string; binary?: string } };
  discontinuity?: unknown;
}

const REQUEST_TIMEOUT_MS = 15_000;

export async function publish(
  baseUrl: string,
  apiKey: string,
  cache: string,
  topic: string,
  text: string,
): Promise<Response> {
  return fetch(`${baseUrl}/topics/${encodeURIComponent(cache)}/${encodeURIComponent(topic)}`, {
    method: 'POST',
    headers: { authorization: apiKey, 'content-type': 'text/plain' },
    body: text,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
}

export async function subscribe(
  baseUrl: string,
  apiKey: string,
  cache: string,
  topic: string,
  cursor?: { sequenceNumber: number; sequencePage: number },
): Promise<SubscribeElement[]> {
  const query = cursor ? `?sequence_number=${cursor.sequenceNumber}&sequence_page=${cursor.sequencePage}` : '';
  const response = await fetch(`${baseUrl}/topics/${encodeURIComponent(cache)}/${encodeURIComponent(topic)}${query}`, {
    headers: { authorization: apiKey },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  expect(response.status, await peek(response)).toBe(200);
  const body = (await response.json()) as { items: SubscribeElement[] };
  return body.items;
}

/**
 * Publishes one message and reads it back from the start of the stream (a first request waits for
 * the next message, so the read resumes at 1 on page 0), then resumes with a long poll that is
 * answered by a second publish: the path every client takes.
 */
export async function expectRoundTrip(baseUrl: string, apiKey: string, cache: string, topic: string): Promise<void> {
  const first = await publish(baseUrl, apiKey, cache, topic, 'hello');
  expect(first.status, await peek(first)).toBe(204);

  const [element] = await subscribe(baseUrl, apiKey, cache, topic, { sequenceNumber: 1, sequencePage: 0 });
  expect(element?.item?.value).toEqual({ text: 'hello' });
  expect(element?.item?.topic_sequence_number).toBe(1);
  const page = element?.item?.sequence_page ?? 0;

  // Waits on the server (nothing numbered 2 yet) until the next publish answers it.
  const waiting = subscribe(baseUrl, apiKey, cache, topic, { sequenceNumber: 2, sequencePage: page });
  const second = await publish(baseUrl, apiKey, cache, topic, 'world');
  expect(second.status, await peek(second)).toBe(204);
  const [next] = await waiting;
  expect(next?.item).toEqual({ sequence_page: page, topic_sequence_number: 2, value: { text: 'world' } });
}

/** The body of an unexpected answer, for the assertion message (reads a clone). */
async function peek(response: Response): Promise<string> {
  return `${response.status} ${await response.clone().text()}`;
}
