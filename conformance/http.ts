// The sender: the only place the suite talks HTTP. It knows a base URL and nothing of what
// is behind it, counts and caps requests, caps concurrency and rate, waits out 429s
// (Retry-After, else backoff) instead of failing a rule for them, and records every exchange.
import type { Cursor, Exchange, ExchangeOperation } from './exchange.js';

export class BudgetExhausted extends Error {
  constructor(limit: number) {
    super(`request budget of ${limit} requests exhausted`);
    this.name = 'BudgetExhausted';
  }
}

export interface SenderOptions {
  baseUrl: string;
  /** Most requests the whole run may send. */
  maxRequests: number;
  /** Most requests in flight at once (long-polls included). */
  concurrency: number;
  /** Most requests started per second (0 = no cap); 10 matches the live service's default limit. */
  ratePerSecond: number;
  /** Longest Retry-After the sender waits before retrying a 429. */
  maxRetryAfterMs: number;
  /** 429 retries per request before the 429 is returned as the answer. */
  maxRetries: number;
}

export interface RequestSpec {
  rule: string;
  operation: ExchangeOperation;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path from the base URL, already percent-encoded, starting with '/'. */
  path: string;
  /** Query parameters, in order (a name may repeat). */
  query?: Array<[string, string]>;
  headers?: Record<string, string>;
  body?: Uint8Array;
  cursor?: Cursor;
  /** Client-side abort: the exchange ends with error 'timeout'. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Answer a 429 as it came instead of waiting and retrying. */
  raw429?: boolean;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}

export class Sender {
  readonly exchanges: Exchange[] = [];
  /** 429 answers waited out. */
  throttled = 0;
  private nextId = 1;
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private nextStartAt = 0;
  private readonly listeners: Array<(exchange: Exchange) => void> = [];

  constructor(readonly options: SenderOptions) {}

  get count(): number {
    return this.nextId - 1;
  }

  onExchange(listener: (exchange: Exchange) => void): void {
    this.listeners.push(listener);
  }

  async send(spec: RequestSpec): Promise<Exchange> {
    for (let attempt = 0; ; attempt += 1) {
      const exchange = await this.sendOnce(spec);
      if (exchange.status !== 429 || spec.raw429 || attempt >= this.options.maxRetries) return exchange;
      exchange.retried = true;
      this.throttled += 1;
      const retryAfter = Number(exchange.responseHeaders?.['retry-after']);
      const wait = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : 200 * 2 ** attempt;
      await sleep(Math.min(Math.max(wait, 50), this.options.maxRetryAfterMs));
    }
  }

  private async acquire(): Promise<void> {
    while (this.inFlight >= this.options.concurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.inFlight += 1;
    if (this.options.ratePerSecond > 0) {
      const now = Date.now();
      const startAt = Math.max(now, this.nextStartAt);
      this.nextStartAt = startAt + 1000 / this.options.ratePerSecond;
      if (startAt > now) await sleep(startAt - now);
    }
  }

  private release(): void {
    this.inFlight -= 1;
    this.waiting.shift()?.();
  }

  private async sendOnce(spec: RequestSpec): Promise<Exchange> {
    if (this.count >= this.options.maxRequests) throw new BudgetExhausted(this.options.maxRequests);
    const id = this.nextId;
    this.nextId += 1;
    const url = new URL(this.options.baseUrl.replace(/\/+$/, '') + spec.path);
    for (const [name, value] of spec.query ?? []) url.searchParams.append(name, value);
    const exchange: Exchange = {
      id,
      rule: spec.rule,
      operation: spec.operation,
      method: spec.method,
      url: url.toString(),
      requestHeaders: Object.fromEntries(Object.entries(spec.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
      startedAt: Date.now(),
      durationMs: 0,
    };
    if (spec.body) exchange.requestBody = spec.body;
    if (spec.cursor) exchange.cursor = spec.cursor;
    this.exchanges.push(exchange);

    await this.acquire();
    exchange.startedAt = Date.now();
    const timeout = spec.timeoutMs !== undefined ? AbortSignal.timeout(spec.timeoutMs) : undefined;
    const signals = [timeout, spec.signal].filter((s): s is AbortSignal => s !== undefined);
    const started = performance.now();
    try {
      const response = await fetch(url, {
        method: spec.method,
        headers: spec.headers ?? {},
        // Our bodies are plain ArrayBuffer-backed arrays; the DOM typing asks for that explicitly.
        body: (spec.body ?? null) as Uint8Array<ArrayBuffer> | null,
        redirect: 'manual',
        signal: signals.length > 0 ? AbortSignal.any(signals) : null,
      });
      const body = new Uint8Array(await response.arrayBuffer());
      exchange.status = response.status;
      exchange.responseHeaders = {};
      response.headers.forEach((value, name) => {
        exchange.responseHeaders![name] = value;
      });
      exchange.responseBody = body;
      if (body.length > 0) {
        try {
          exchange.json = JSON.parse(new TextDecoder('utf-8', { ignoreBOM: true }).decode(body));
        } catch {
          // Not JSON: the content-type and schema rules say so; the raw body is kept.
        }
      }
    } catch (error) {
      if (timeout?.aborted) exchange.error = 'timeout';
      else if (spec.signal?.aborted) exchange.error = 'aborted';
      else exchange.error = errorText(error);
    } finally {
      exchange.durationMs = Math.round(performance.now() - started);
      this.release();
    }
    for (const listener of this.listeners) listener(exchange);
    return exchange;
  }
}
