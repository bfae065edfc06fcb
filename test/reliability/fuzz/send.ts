import { errors, type Pool } from 'undici';
import { rawExchange } from '../raw-http.js';
import type { FuzzCase } from './cases.js';

// Sends one fuzz case: through undici (a keep-alive pool, as real clients do) when undici
// accepts it as it is, else over a bare socket, byte for byte. undici refuses what it cannot
// send faithfully (odd methods, raw bytes in the target, framing headers), so nothing is
// normalised away on either path.

export interface Answer {
  transport: 'undici' | 'raw';
  ending: 'answered' | 'closed' | 'timeout';
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const FRAMING_HEADERS = new Set([
  'host',
  'connection',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'expect',
  'content-length',
]);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function undiciCanSend(c: FuzzCase): boolean {
  return (
    c.framing === 'length' &&
    !c.trickle &&
    TOKEN.test(c.method) &&
    c.method !== 'CONNECT' &&
    /^\/[\x21-\x7e]*$/.test(c.target) &&
    c.headers.every(
      ([name, value]) => TOKEN.test(name) && !FRAMING_HEADERS.has(name.toLowerCase()) && /^[\t\x20-\x7e]*$/.test(value),
    )
  );
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : (v ?? '')]),
  );
}

async function viaUndici(pool: Pool, c: FuzzCase, timeoutMs: number): Promise<Answer> {
  const response = await pool.request({
    path: c.target,
    method: c.method,
    headers: c.headers.flat(),
    body: c.body.length ? c.body : null,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const body = Buffer.from(await response.body.arrayBuffer());
  return {
    transport: 'undici',
    ending: 'answered',
    status: response.statusCode,
    headers: flatHeaders(response.headers),
    body,
  };
}

function chunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += 7) {
    const piece = body.subarray(at, at + 7);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

async function viaSocket(port: number, c: FuzzCase, timeoutMs: number): Promise<Answer> {
  const framing: [string, string][] =
    c.framing === 'chunked'
      ? [['Transfer-Encoding', 'chunked']]
      : c.framing === 'short'
        ? [['Content-Length', String(c.body.length + 10)]]
        : c.body.length > 0 || ['POST', 'PUT', 'PATCH'].includes(c.method)
          ? [['Content-Length', String(c.body.length)]]
          : [];
  const lines = [
    `${c.method} ${c.target} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Connection: close',
    ...[...c.headers, ...framing].map(([n, v]) => `${n}: ${v}`),
  ];
  const body = c.framing === 'chunked' ? chunked(c.body) : c.body;
  const outcome = await rawExchange(port, {
    head: Buffer.from(`${lines.join('\r\n')}\r\n\r\n`),
    body,
    ...(c.trickle ? { trickleBytes: Math.max(1, Math.ceil(body.length / 20)), trickleEveryMs: 2 } : {}),
    endAfterWrite: c.framing === 'short',
    isHead: c.method === 'HEAD',
    timeoutMs,
  });
  const response = outcome.response;
  return {
    transport: 'raw',
    ending: outcome.ending,
    status: response?.status ?? 0,
    headers: response?.headers ?? {},
    body: response?.body ?? Buffer.alloc(0),
  };
}

export async function send(pool: Pool, port: number, c: FuzzCase, timeoutMs: number): Promise<Answer> {
  if (undiciCanSend(c)) {
    try {
      return await viaUndici(pool, c, timeoutMs);
    } catch (error) {
      // Refused before sending (a value undici will not write): the socket path sends it as is.
      if (!(error instanceof errors.InvalidArgumentError || error instanceof errors.NotSupportedError)) {
        if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError) {
          return { transport: 'undici', ending: 'timeout', status: 0, headers: {}, body: Buffer.alloc(0) };
        }
        return { transport: 'undici', ending: 'closed', status: 0, headers: {}, body: Buffer.alloc(0) };
      }
    }
  }
  return viaSocket(port, c, timeoutMs);
}
