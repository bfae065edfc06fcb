import { ADMIN_KEY_HEADER, adminKeyHeaders } from './admin-key.js';

// Every action of the dashboard is one documented HTTP call (openapi/control.yaml, or the
// Topics API for a publish), so anything done here can be repeated with curl: each call is
// reported with its curl command.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }

  /** The control plane wants the admin key (none sent, or a wrong one). */
  get needsAdminKey(): boolean {
    return this.code === 'admin_key_required' || this.code === 'admin_key_invalid';
  }
}

export interface CallRecord {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  /** A header shown as a shell variable in the curl command, e.g. Authorization: $TOKEN. */
  secretHeader?: [string, string];
}

type CallListener = (call: CallRecord) => void;
let onCall: CallListener = () => {};
/** Tells the page of each state-changing call (the "last action" line with its curl). */
export function reportCalls(listener: CallListener): void {
  onCall = listener;
}

export function curlOf(call: CallRecord): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const parts = ['curl -i'];
  if (call.method !== 'GET') parts.push(`-X ${call.method}`);
  if (call.path.startsWith('/_emulator/') && adminKeyHeaders()[ADMIN_KEY_HEADER] !== undefined)
    parts.push(`-H "${ADMIN_KEY_HEADER}: $TOPICS_EMULATOR_ADMIN_KEY"`);
  if (call.secretHeader) parts.push(`-H "${call.secretHeader[0]}: ${call.secretHeader[1]}"`);
  if (call.contentType) parts.push(`-H ${quote(`Content-Type: ${call.contentType}`)}`);
  if (call.body !== undefined) parts.push(`--data ${quote(call.body)}`);
  parts.push(quote(`${location.origin}${call.path}`));
  return parts.join(' ');
}

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const { code, message } = JSON.parse(text) as { code?: string; message?: string };
    return new ApiError(response.status, code, message ?? `HTTP ${response.status}`);
  } catch {
    return new ApiError(response.status, undefined, text || `HTTP ${response.status}`);
  }
}

/** A control-plane call; throws ApiError on any answer but 2xx. */
export async function control<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const json = body === undefined ? undefined : JSON.stringify(body);
  const response = await fetch(path, {
    method,
    headers: { ...adminKeyHeaders(), ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(json !== undefined ? { body: json } : {}),
  });
  if (method !== 'GET')
    onCall({ method, path, ...(json !== undefined ? { body: json, contentType: 'application/json' } : {}) });
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as T;
}

/** A GET of an operation this version of the emulator may not have: undefined on 404 route_not_found. */
export async function optional<T>(path: string): Promise<T | undefined> {
  try {
    return await control<T>('GET', path);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

export const topicPath = (cache: string, topic: string) =>
  `/topics/${encodeURIComponent(cache)}/${encodeURIComponent(topic)}`;

// A publish goes through the Topics API like any client's, with a token the dashboard issues
// itself from the control plane (publish and subscribe on every cache, one hour).
let serviceToken: string | undefined;
async function tokenFor(): Promise<string> {
  if (serviceToken !== undefined) return serviceToken;
  const tokenId = `dashboard-${Math.random().toString(36).slice(2, 10)}`;
  const issued = await control<{ token: string }>('POST', '/_emulator/tokens', {
    tokenId,
    permissions: [{ role: 'publishsubscribe', cache: '*' }],
    ttlSeconds: 3600,
  });
  serviceToken = issued.token;
  return serviceToken;
}

export interface PublishAnswer {
  status: number;
  code?: string;
  message?: string;
  retryAfter?: string;
}

/** Publishes text; the answer is whatever the emulator said (a fault's status included). */
export async function publish(cache: string, topic: string, text: string): Promise<PublishAnswer> {
  const path = topicPath(cache, topic);
  const send = async (token: string) =>
    fetch(path, { method: 'POST', headers: { authorization: token, 'content-type': 'text/plain' }, body: text });
  const response = await send(await tokenFor());
  // The token expired or was withdrawn (or a fault said so): the answer is shown as it is, and
  // the next publish asks for a new token.
  if (response.status === 401) serviceToken = undefined;
  onCall({ method: 'POST', path, body: text, contentType: 'text/plain', secretHeader: ['Authorization', '$TOKEN'] });
  if (response.ok) return { status: response.status };
  const error = await errorOf(response);
  const retryAfter = response.headers.get('retry-after') ?? undefined;
  return {
    status: response.status,
    ...(error.code ? { code: error.code } : {}),
    message: error.message,
    ...(retryAfter ? { retryAfter } : {}),
  };
}

// The Cache view sets and deletes items through the cache HTTP API like any client, with a token
// the dashboard issues itself (readwrite on every cache, one hour).
let cacheToken: string | undefined;
async function cacheTokenFor(): Promise<string> {
  if (cacheToken !== undefined) return cacheToken;
  const issued = await control<{ token: string }>('POST', '/_emulator/tokens', {
    tokenId: `dashboard-cache-${Math.random().toString(36).slice(2, 10)}`,
    permissions: [{ role: 'readwrite', cache: '*' }],
    ttlSeconds: 3600,
  });
  cacheToken = issued.token;
  return cacheToken;
}

/** An item's path on the cache HTTP API: a text key as `key`, bytes as `key_base64` (base64url). */
export function itemPath(cache: string, key: { text?: string | null; base64: string }): string {
  const named =
    typeof key.text === 'string'
      ? `key=${encodeURIComponent(key.text)}`
      : `key_base64=${key.base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
  return `/cache/${encodeURIComponent(cache)}?${named}`;
}

/** Sets (a value and `ttlSeconds`) or deletes an item; throws ApiError on an error answer. */
export async function changeItem(
  method: 'PUT' | 'DELETE',
  cache: string,
  key: { text?: string | null; base64: string },
  value?: { text: string; ttlSeconds: number },
): Promise<void> {
  const path = itemPath(cache, key) + (value ? `&ttl_seconds=${value.ttlSeconds}` : '');
  const response = await fetch(path, {
    method,
    headers: { authorization: await cacheTokenFor(), ...(value ? { 'content-type': 'text/plain' } : {}) },
    ...(value ? { body: value.text } : {}),
  });
  if (response.status === 401) cacheToken = undefined;
  onCall({
    method,
    path,
    ...(value ? { body: value.text, contentType: 'text/plain' } : {}),
    secretHeader: ['Authorization', '$TOKEN'],
  });
  if (!response.ok) throw await errorOf(response);
}
