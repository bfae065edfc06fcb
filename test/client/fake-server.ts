// A scripted HTTP server for the client's tests: each request takes the next scripted answer
// and is recorded (raw URL, headers, body bytes) for the test to inspect.

import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** The raw request target, exactly as sent (percent-encoding intact). */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Resolves when the response closes, finished or not (e.g. the client aborted). */
  closed: Promise<void>;
  /** Whether the response was sent in full, read once `closed` resolved. */
  finished: () => boolean;
}

export type Answer = (res: ServerResponse, req: RecordedRequest) => void;

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  /** Queues answers for the next requests, in order. Unscripted requests get 599. */
  script(...answers: Answer[]): void;
  /** Resolves with request number `index` (0-based) once it has arrived. */
  request(index: number): Promise<RecordedRequest>;
  /** The query of request `index` as a plain object. */
  query(index: number): Record<string, string>;
  close(): Promise<void>;
}

export async function startFakeServer(): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const answers: Answer[] = [];
  const waiters = new Map<number, (request: RecordedRequest) => void>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        closed,
        finished: () => res.writableFinished,
      };
      const index = requests.push(recorded) - 1;
      const answer = answers.shift() ?? json(599, { code: 'unscripted', message: `no answer for request ${index}` });
      answer(res, recorded);
      waiters.get(index)?.(recorded);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...more) => answers.push(...more),
    request: (index) => {
      const known = requests[index];
      return known ? Promise.resolve(known) : new Promise((resolve) => waiters.set(index, resolve));
    },
    query: (index) => {
      const request = requests[index];
      if (!request) throw new Error(`no request ${index}`);
      return Object.fromEntries(new URL(request.url, 'http://x').searchParams);
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

export function text(status: number, body: string, headers: Record<string, string> = {}): Answer {
  return (res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(body);
  };
}

export const noContent: Answer = (res) => {
  res.writeHead(204);
  res.end();
};

/** A long-poll that never answers: the request stays open until the client goes away. */
export const hold: Answer = () => {};

/** The connection drops before any response: a network error for the client. */
export const drop: Answer = (res) => {
  res.socket?.destroy();
};

/** A subscribe 200 from shorthand elements. */
export function items(...elements: unknown[]): Answer {
  return json(200, { items: elements });
}

export function textItem(sequenceNumber: number, page: number, value: string): unknown {
  return { item: { topic_sequence_number: sequenceNumber, sequence_page: page, value: { text: value } } };
}

export function discontinuity(last: number, next: number, page: number): unknown {
  return { discontinuity: { last_topic_sequence: last, new_topic_sequence: next, new_sequence_page: page } };
}
