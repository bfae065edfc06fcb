// One request the suite sent and what came back. Every exchange is recorded, checked
// against the OpenAPI document, and can be printed as a curl command.

export type ExchangeOperation = 'publish' | 'subscribe' | 'cache' | 'control' | 'health';

export interface Cursor {
  /** sequence_number sent (0 on a first request). */
  n: number;
  /** sequence_page sent (0 on a first request or when unsure). */
  page: number;
}

export interface Exchange {
  id: number;
  /** The rule (or stream driver) that sent it. */
  rule: string;
  operation: ExchangeOperation;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Full URL as sent, token included; printed only through curl.ts, which redacts it. */
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: Uint8Array;
  /** The cursor of a subscribe, as sent. */
  cursor?: Cursor;
  startedAt: number;
  durationMs: number;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: Uint8Array;
  /** The body parsed as JSON when it is JSON. */
  json?: unknown;
  /** Why no status came back: 'timeout' (our client-side abort), 'aborted', or the network error. */
  error?: string;
  /** Set when the sender retried this 429 after Retry-After. */
  retried?: boolean;
}

export function header(exchange: Exchange, name: string): string | undefined {
  return exchange.responseHeaders?.[name.toLowerCase()];
}

/** The media type without parameters, lower-cased ('' when absent). */
export function mediaType(exchange: Exchange): string {
  return (header(exchange, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

export function bodyText(exchange: Exchange): string {
  return exchange.responseBody ? new TextDecoder('utf-8', { ignoreBOM: true }).decode(exchange.responseBody) : '';
}

/** A one-line summary for reports: `GET /topics/c/t?sequence_number=3&sequence_page=9 -> 200`. */
export function describeExchange(exchange: Exchange, redact: (text: string) => string): string {
  const url = new URL(exchange.url);
  const target = redact(`${url.pathname}${url.search}`);
  const outcome =
    exchange.status !== undefined ? String(exchange.status) : `no answer (${exchange.error ?? 'unknown'})`;
  return `${exchange.method} ${target} -> ${outcome}`;
}
