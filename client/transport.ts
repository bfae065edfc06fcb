// Turns (cache, topic, query) into one authenticated fetch. The only place that knows where
// the token goes and how the path is built.

export interface TopicsClientOptions {
  /** The service's base address, e.g. `http://127.0.0.1:4545` (a path prefix is kept). */
  baseUrl: string;
  /** Auth token or API key, sent raw (no `Bearer `). */
  token: string;
  /** Where the token goes; never both (both answers 400). Default `'header'`. */
  tokenIn?: 'header' | 'query';
  /** A fetch to use instead of the global one (a proxy, a test double, a custom agent). */
  fetch?: typeof fetch;
  /**
   * Sent as `User-Agent` when given. Off by default: browsers may refuse to set it, and an
   * extra header widens the CORS preflight.
   */
  userAgent?: string;
}

export interface Transport {
  send(method: 'GET' | 'POST', cache: string, topic: string, init: TransportInit): Promise<Response>;
}

export interface TransportInit {
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: BodyInit;
  signal?: AbortSignal | undefined;
}

export function createTransport(options: TopicsClientOptions): Transport {
  const base = parseBaseUrl(options.baseUrl);
  if (typeof options.token !== 'string' || options.token === '')
    throw new TypeError('token must be a non-empty string');
  const tokenIn = options.tokenIn ?? 'header';
  if (tokenIn !== 'header' && tokenIn !== 'query') throw new TypeError(`tokenIn must be 'header' or 'query'`);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('no fetch available: pass options.fetch');
  // Called as a plain function, never as a method of ours: a browser's fetch throws
  // "Illegal invocation" when its `this` is anything but the global object or undefined.
  const call = (url: string, init: RequestInit): Promise<Response> => fetchImpl(url, init);

  return {
    send(method, cache, topic, init) {
      const query = new URLSearchParams(init.query);
      const headers: Record<string, string> = { ...init.headers };
      if (tokenIn === 'query') query.set('token', options.token);
      else headers['authorization'] = options.token;
      if (options.userAgent !== undefined) headers['user-agent'] = options.userAgent;
      const search = query.toString();
      const url = `${base}/topics/${encodeURIComponent(cache)}/${encodeURIComponent(topic)}${search ? `?${search}` : ''}`;
      return call(url, {
        method,
        headers,
        ...(init.body === undefined ? {} : { body: init.body }),
        ...(init.signal === undefined ? {} : { signal: init.signal }),
      });
    },
  };
}

/** Validated once, so a typo fails at construction rather than on the first request. */
function parseBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('baseUrl must be http: or https:');
  if (url.search !== '' || url.hash !== '') throw new TypeError('baseUrl must not have a query or a fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
