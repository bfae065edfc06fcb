// One long-poll GET: the wire-level operation that `subscribe` repeats.

import { httpErrorFrom, TopicsProtocolError } from './errors.js';
import type { Cursor } from './events.js';
import type { Transport } from './transport.js';
import { parseSubscribeResponse, type SubscribeResponse } from './wire.js';

export interface PollResult {
  response: SubscribeResponse;
  status: number;
  /** The body as received, kept for error reports. */
  body: string;
}

export async function pollOnce(
  transport: Transport,
  cache: string,
  topic: string,
  cursor: Cursor,
  signal?: AbortSignal,
): Promise<PollResult> {
  const response = await transport.send('GET', cache, topic, {
    query: { sequence_number: String(cursor.sequenceNumber), sequence_page: String(cursor.sequencePage) },
    headers: { accept: 'application/json' },
    signal,
  });
  if (!response.ok) throw await httpErrorFrom(response);
  const body = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new TopicsProtocolError('Unexpected subscribe response: the body is not JSON', response.status, body);
  }
  return { response: parseSubscribeResponse(json, response.status, body), status: response.status, body };
}
