import { connect, type Socket } from 'node:net';

// HTTP/1.1 over a bare socket, for requests fetch and undici would refuse or normalise away:
// odd methods and request targets, raw bytes in paths and headers, duplicated framing headers,
// bodies trickled or cut short. One request per connection; the answer is read until the
// server closes or the declared body is complete.

export interface RawResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: Buffer;
}

export interface RawOutcome {
  /** The final (non-1xx) response, if one arrived. */
  response: RawResponse | undefined;
  /** How the exchange ended: answered, closed by the server without an answer, or no answer in time. */
  ending: 'answered' | 'closed' | 'timeout';
  /** Body bytes written before the answer arrived (or the exchange ended). */
  bodyBytesSentBeforeAnswer: number;
}

export interface RawRequest {
  /** Request line and headers, up to and including the blank line. */
  head: string | Buffer;
  body?: Buffer;
  /** Writes the body in pieces of this many bytes, one per `trickleEveryMs`, stopping once answered. */
  trickleBytes?: number;
  trickleEveryMs?: number;
  /** Half-closes after writing everything: the server sees the end of a (possibly cut-short) request. */
  endAfterWrite?: boolean;
  /** The request is HEAD: the answer has no body whatever its headers say. */
  isHead?: boolean;
  timeoutMs?: number;
}

const CRLF2 = Buffer.from('\r\n\r\n');

interface Parsed {
  response: RawResponse;
  /** Bytes of the input this response used. */
  used: number;
}

function parseHead(buffer: Buffer): { status: number; headers: Record<string, string>; headEnd: number } | undefined {
  const end = buffer.indexOf(CRLF2);
  if (end === -1) return undefined;
  const lines = buffer.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status, headers, headEnd: end + 4 };
}

/** Decodes a complete chunked body, or undefined while more is needed. */
function dechunk(buffer: Buffer): { body: Buffer; used: number } | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = parseInt(buffer.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('bad chunk size in response');
    const dataStart = lineEnd + 2;
    if (size === 0) {
      const trailerEnd = buffer.indexOf(CRLF2, lineEnd);
      if (trailerEnd === -1 && buffer.indexOf('\r\n', dataStart) !== dataStart) return undefined;
      return { body: Buffer.concat(parts), used: trailerEnd === -1 ? dataStart + 2 : trailerEnd + 4 };
    }
    if (buffer.length < dataStart + size + 2) return undefined;
    parts.push(buffer.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}

/** The first complete response in `buffer`; `closed` says the server has ended the stream. */
export function parseResponse(buffer: Buffer, closed: boolean, isHead = false): Parsed | undefined {
  const head = parseHead(buffer);
  if (!head) return undefined;
  const { status, headers, headEnd } = head;
  const rest = buffer.subarray(headEnd);
  if (isHead || status === 204 || status === 304 || (status >= 100 && status < 200)) {
    return { response: { status, headers, body: Buffer.alloc(0) }, used: headEnd };
  }
  if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
    const chunked = dechunk(rest);
    return chunked && { response: { status, headers, body: chunked.body }, used: headEnd + chunked.used };
  }
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (rest.length < length) return undefined;
    return { response: { status, headers, body: rest.subarray(0, length) }, used: headEnd + length };
  }
  return closed ? { response: { status, headers, body: rest }, used: buffer.length } : undefined;
}

/** Sends one request on a fresh connection to 127.0.0.1:port and reads its final answer. */
export function rawExchange(port: number, request: RawRequest): Promise<RawOutcome> {
  const { body = Buffer.alloc(0), trickleBytes, trickleEveryMs = 1, timeoutMs = 10_000 } = request;
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let bodySent = 0;
    let done = false;
    let trickle: NodeJS.Timeout | undefined;
    const finish = (ending: RawOutcome['ending'], response?: RawResponse) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      clearInterval(trickle);
      socket.destroy();
      resolve({ response, ending, bodyBytesSentBeforeAnswer: bodySent });
    };
    const deadline = setTimeout(() => finish('timeout'), timeoutMs);
    const check = (closed: boolean) => {
      let buffer = received;
      for (;;) {
        const parsed = parseResponse(buffer, closed, request.isHead);
        if (!parsed) break;
        if (parsed.response.status >= 200 || Number.isNaN(parsed.response.status))
          return finish('answered', parsed.response);
        buffer = buffer.subarray(parsed.used); // an interim 1xx: the final answer follows
      }
      if (closed) finish('closed');
    };
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      check(false);
    });
    socket.on('end', () => check(true));
    socket.on('close', () => check(true));
    socket.on('error', () => check(true));
    socket.once('connect', () => {
      socket.write(request.head);
      if (trickleBytes === undefined) {
        if (body.length) socket.write(body);
        bodySent = body.length;
        if (request.endAfterWrite) socket.end();
        return;
      }
      trickle = setInterval(() => {
        if (done || socket.destroyed || !socket.writable) return clearInterval(trickle);
        // Do not run ahead of the socket: a server that stopped reading must not make us buffer.
        if (socket.writableNeedDrain) return;
        const piece = body.subarray(bodySent, bodySent + trickleBytes);
        bodySent += piece.length;
        socket.write(piece);
        if (bodySent >= body.length) {
          clearInterval(trickle);
          if (request.endAfterWrite) socket.end();
        }
      }, trickleEveryMs);
    });
  });
}

/** A request head from a method, a target and header pairs (written exactly as given). */
export function requestHead(method: string, target: string, headers: [string, string][]): string {
  return `${method} ${target} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
}
