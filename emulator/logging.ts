import { pino, type Logger } from 'pino';
import type { EmulatorSettings } from './settings.js';

/** What the parts that decide or store log through: levels only, no framework's logger type. */
export type Log = Pick<Logger, 'level' | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'>;

// Credentials never reach a log line, the journal or the event stream: the token parameter is
// masked in every URL and path we keep, and headers that carry credentials are censored
// wherever they appear.
//
// The mask follows how the router reads a URL, not how it should look: the query string is
// everything after the first '?' or '#', a value runs to the next '&', and names are
// percent-decoded ('tok%65n' is 'token'). Parameters are looked for after ';' too, where a client
// may have put its token by mistake (`/topics/c/t;token=...` is a topic named so; an encoded
// `%3B` there counts as one, as the router decodes the topic), and a name is
// a token's in any spelling a parser could take for one: `token`, `token[]`, `token[0]`, and
// `token%3D...` (the whole parameter is the name, with the value in it).

// Spaces around the name too (`token+=...`, `token%20=...`): no parser takes it for the token, but
// a reader would.
const TOKEN_NAME = /^\s*token\s*(\[[^\]]*\])*\s*(=|$)/;

function decoded(text: string): string {
  const spaced = text.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced).toLowerCase();
  } catch {
    return spaced.toLowerCase(); // an invalid escape: the query parser keeps it as it is
  }
}

/** A parameter (`name=value`, or a name holding an encoded `=`) that carries a token: masked after its name. */
function maskParameter(parameter: string): string {
  if (!TOKEN_NAME.test(decoded(parameter))) return parameter;
  const equals = parameter.indexOf('=');
  return equals === -1
    ? decoded(parameter).includes('=')
      ? 'token=[redacted]'
      : parameter
    : `${parameter.slice(0, equals + 1)}[redacted]`;
}

const SEPARATORS = '?&#;';

export function redactUrl(given: string): string {
  // Most URLs and paths have no parameter at all: nothing to scan.
  if (!/[?&#;]|%3b|%3f|%23/i.test(given)) return given;
  // In the path an encoded ';', '?' or '#' (`t%3Btoken=...`, `t%3Ftoken=...`) is one once the
  // router decodes the topic: a topic so named is kept masked as the URL is.
  const pathEnd = given.search(/[?#]/);
  const path = pathEnd === -1 ? given : given.slice(0, pathEnd);
  const url = /%3b|%3f|%23/i.test(path)
    ? path.replace(/%3b/gi, ';').replace(/%3f/gi, ';').replace(/%23/gi, ';') + given.slice(path.length)
    : given;
  const queryStart = url.search(/[?#]/);
  let out = '';
  let i = 0;
  while (i < url.length) {
    const c = url[i]!;
    if (!SEPARATORS.includes(c)) {
      const next = url.slice(i).search(/[?&#;]/);
      const end = next === -1 ? url.length : i + next;
      out += url.slice(i, end);
      i = end;
      continue;
    }
    // In the query a value runs to the next '&' (a ';' inside it is part of it); in the path, to any separator or '/'.
    const inQuery = queryStart !== -1 && i >= queryStart;
    let end = i + 1;
    while (end < url.length && !(inQuery ? url[end] === '&' : '?&#;/'.includes(url[end]!))) end++;
    const parameter = url.slice(i + 1, end);
    const masked = maskParameter(parameter);
    // A parameter that is no token's may still hold one after a ';', '?' or '#' (`?x=1;token=...`): look inside it.
    out += c + (masked !== parameter || !/[?#;]/.test(parameter) ? masked : redactInside(parameter));
    i = end;
  }
  return out;
}

function redactInside(parameter: string): string {
  const at = parameter.search(/[?#;]/);
  return parameter.slice(0, at) + redactUrl(parameter.slice(at));
}

export const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-emulator-admin-key"]',
  'headers.authorization',
  'headers["x-emulator-admin-key"]',
  'token',
  'apiKey',
  'adminKey',
  'signingKey',
];

/**
 * The emulator's logger: pino, credentials redacted. Fastify gets it as its own logger only at
 * debug and trace, where each request is logged; above that a per-request child logger and
 * response listeners would cost more than the request, so fastify runs without one and the
 * emulator logs through this logger directly.
 */
export function createLogger(
  level: EmulatorSettings['logLevel'],
  format: EmulatorSettings['logFormat'] = 'json',
): Logger {
  const pretty = format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
  const options = {
    level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
  // A person at a terminal reads lines; anything else (a file, a collector) gets JSON.
  return pretty ? pino(options, { write: (line: string) => process.stdout.write(prettyLine(line)) }) : pino(options);
}

const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};
/** What a pretty line leaves out: said by the line itself, or the same on every line. */
const IMPLIED = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

/** One of pino's JSON lines as a person reads it: `21:04:05.123 WARN  message  key=value ...`. */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : '';
  const level = LEVEL_NAMES[entry.level as number] ?? String(entry.level);
  const fields = Object.entries(entry)
    .filter(([key]) => !IMPLIED.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return `${time} ${level} ${typeof entry.msg === 'string' ? entry.msg : JSON.stringify(entry.msg ?? '')}${fields.length ? `  ${fields.join(' ')}` : ''}\n`;
}

export function logsEachRequest(level: EmulatorSettings['logLevel']): boolean {
  return level === 'debug' || level === 'trace';
}

/** The URL without its password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured URL';
  }
}
