// Errors the client throws. Both carry what the caller needs to decide (status, code,
// Retry-After) and the raw body for diagnosis; neither ever carries the URL, because in
// `tokenIn: 'query'` mode the URL holds the token.

/** A response whose status says the request failed (anything but 2xx). */
export class TopicsHttpError extends Error {
  override readonly name = 'TopicsHttpError';
  readonly status: number;
  /** The stable `code` of a JSON `{"code","message"}` body, when the server sent one. */
  readonly code: string | undefined;
  /** From the `Retry-After` header (seconds, or an HTTP date turned into seconds from now). */
  readonly retryAfterSeconds: number | undefined;
  /** The response body as text, exactly as received (may be empty or not JSON). */
  readonly body: string;

  constructor(init: { status: number; message: string; code?: string; retryAfterSeconds?: number; body: string }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.body = init.body;
  }
}

/** A successful status with a body that is not the documented wire format. */
export class TopicsProtocolError extends Error {
  override readonly name = 'TopicsProtocolError';
  readonly status: number;
  /** The response body as text, when it could be read. */
  readonly body: string;

  constructor(message: string, status: number, body: string) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/**
 * Builds the error for a failed response. The error body's format is not published for the
 * live service (service-facts "Errors"), so a body that is not `{"code","message"}` JSON still
 * gives a useful error instead of a parse failure.
 */
export async function httpErrorFrom(response: Response, now: () => number = Date.now): Promise<TopicsHttpError> {
  const body = await readTextOrEmpty(response);
  const parsed = parseErrorBody(body);
  const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'), now());
  const fallback = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return new TopicsHttpError({
    status: response.status,
    message: parsed.message ?? fallback,
    ...(parsed.code === undefined ? {} : { code: parsed.code }),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    body,
  });
}

function parseErrorBody(body: string): { code?: string; message?: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return {};
  }
  if (typeof json !== 'object' || json === null) return {};
  const { code, message } = json as Record<string, unknown>;
  return {
    ...(typeof code === 'string' && code !== '' ? { code } : {}),
    ...(typeof message === 'string' && message !== '' ? { message } : {}),
  };
}

/** `Retry-After` is either delay-seconds or an HTTP date (RFC 9110 section 10.2.3). */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // HTTP dates begin with a day name; Date.parse alone would also read '-1' or '1.5' as dates.
  const date = /^[A-Za-z]{3}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/** A body that cannot be read (connection dropped) must not hide the status it came with. */
async function readTextOrEmpty(response: Response): Promise<string> {
  try {
    return await response.text();
  } catch {
    return '';
  }
}
