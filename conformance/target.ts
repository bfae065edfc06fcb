// What the rules talk to: one cache of one endpoint, reached through the sender. Every
// topic it names is new and carries the run's prefix, so the suite touches nothing else.
import type { Cursor, Exchange } from './exchange.js';
import type { Sender } from './http.js';
import { Pace } from './pace.js';

/** Where a request carries its token. */
export type AuthPlacement = 'header' | 'query' | 'both' | 'none';

export interface TargetOptions {
  cache: string;
  /** A cache name that does not exist. */
  missingCache: string;
  runId: string;
  token: string;
  adminKey?: string;
  /** Client-side abort for a long-poll, after which the subscriber polls again. */
  pollTimeoutMs: number;
}

export interface PublishOptions {
  /** null sends no Content-Type header. */
  contentType?: string | null;
  auth?: AuthPlacement;
  token?: string;
  cache?: string;
  raw429?: boolean;
}

export interface SubscribeOptions {
  auth?: AuthPlacement;
  token?: string;
  cache?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  raw429?: boolean;
}

const utf8 = new TextEncoder();

export function textBytes(text: string): Uint8Array {
  return utf8.encode(text);
}

export class Target {
  private topics = 0;
  /** The endpoint's measured round trips, and the waits derived from them. */
  readonly pace = new Pace();

  constructor(
    readonly sender: Sender,
    readonly options: TargetOptions,
  ) {
    sender.onExchange((exchange) => this.pace.observe(exchange));
  }

  get cache(): string {
    return this.options.cache;
  }

  /** A topic name no one else uses: `conformance-<run>-<n>-<label>`. */
  newTopic(label: string): string {
    this.topics += 1;
    const safe = label
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .slice(0, 40);
    return `conformance-${this.options.runId}-${this.topics}-${safe}`;
  }

  private auth(
    placement: AuthPlacement,
    token: string,
  ): { headers: Record<string, string>; query: Array<[string, string]> } {
    const headers: Record<string, string> = {};
    const query: Array<[string, string]> = [];
    if (placement === 'header' || placement === 'both') headers.Authorization = token;
    if (placement === 'query' || placement === 'both') query.push(['token', token]);
    return { headers, query };
  }

  private path(cache: string, topic: string): string {
    return `/topics/${encodeURIComponent(cache)}/${encodeURIComponent(topic)}`;
  }

  publish(rule: string, topic: string, body: Uint8Array, options: PublishOptions = {}): Promise<Exchange> {
    const { headers, query } = this.auth(options.auth ?? 'header', options.token ?? this.options.token);
    const contentType = options.contentType === undefined ? 'text/plain' : options.contentType;
    if (contentType !== null) headers['Content-Type'] = contentType;
    return this.sender.send({
      rule,
      operation: 'publish',
      method: 'POST',
      path: this.path(options.cache ?? this.options.cache, topic),
      query,
      headers,
      body,
      timeoutMs: this.options.pollTimeoutMs,
      raw429: options.raw429 ?? false,
    });
  }

  publishText(rule: string, topic: string, text: string, options: PublishOptions = {}): Promise<Exchange> {
    return this.publish(rule, topic, textBytes(text), { contentType: 'text/plain', ...options });
  }

  /** A long-poll from `cursor` (null sends no sequence parameters at all). */
  subscribe(rule: string, topic: string, cursor: Cursor | null, options: SubscribeOptions = {}): Promise<Exchange> {
    const { headers, query } = this.auth(options.auth ?? 'header', options.token ?? this.options.token);
    const sequence: Array<[string, string]> = cursor
      ? [
          ['sequence_number', String(cursor.n)],
          ['sequence_page', String(cursor.page)],
        ]
      : [];
    return this.sender.send({
      rule,
      operation: 'subscribe',
      method: 'GET',
      path: this.path(options.cache ?? this.options.cache, topic),
      query: [...sequence, ...query],
      headers,
      cursor: cursor ?? { n: 0, page: 0 },
      timeoutMs: options.timeoutMs ?? this.options.pollTimeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
      raw429: options.raw429 ?? false,
    });
  }

  /** A key no one else uses, like newTopic's. */
  newKey(label: string): string {
    return this.newTopic(label).replace(/^conformance-/, 'conformance-key-');
  }

  /**
   * A call of the cache HTTP API (Get, Set, Delete Value on /cache/{cache}): the key as `key`
   * (text) or `keyBase64` (base64url), `ttlSeconds` for a Set, the token where `auth` says.
   */
  cacheCall(
    rule: string,
    method: 'GET' | 'PUT' | 'DELETE',
    item: { key?: string; keyBase64?: string; ttlSeconds?: number; body?: Uint8Array; cache?: string },
    options: { auth?: AuthPlacement; token?: string } = {},
  ): Promise<Exchange> {
    const { headers, query } = this.auth(options.auth ?? 'header', options.token ?? this.options.token);
    const named: Array<[string, string]> = [
      ...(item.key !== undefined ? ([['key', item.key]] as Array<[string, string]>) : []),
      ...(item.keyBase64 !== undefined ? ([['key_base64', item.keyBase64]] as Array<[string, string]>) : []),
      ...(item.ttlSeconds !== undefined ? ([['ttl_seconds', String(item.ttlSeconds)]] as Array<[string, string]>) : []),
    ];
    if (item.body !== undefined) headers['Content-Type'] = 'application/octet-stream';
    return this.sender.send({
      rule,
      operation: 'cache',
      method,
      path: `/cache/${encodeURIComponent(item.cache ?? this.options.cache)}`,
      query: [...named, ...query],
      headers,
      ...(item.body !== undefined ? { body: item.body } : {}),
      timeoutMs: 10_000,
      raw429: false,
    });
  }

  /** A control-plane request (`/_emulator/...`), JSON in and out. */
  control(rule: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Exchange> {
    const headers: Record<string, string> = {};
    if (this.options.adminKey) headers['X-Emulator-Admin-Key'] = this.options.adminKey;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return this.sender.send({
      rule,
      operation: path === '/_emulator/health' ? 'health' : 'control',
      method,
      path,
      headers,
      ...(body !== undefined ? { body: textBytes(JSON.stringify(body)) } : {}),
      timeoutMs: 10_000,
      raw429: true,
    });
  }
}
