import { pino, type Logger } from 'pino';
import type { EmulatorSettings } from './settings.js';

// Credentials never reach a log line: the token query parameter is masked in every URL we
// log, and headers that carry credentials are censored wherever they appear.
//
// The mask follows how the router reads a URL, not how it should look: the query string is
// everything after the first '?' or '#', its names are percent-decoded ('tok%65n' is 'token')
// and a value runs to the next '&'. Names are looked for after ';' too, where a client may
// have put its token by mistake.
const PARAMETER_NAME = /[?&#;]([^=?&#;]*)=/g;

function isTokenName(name: string): boolean {
  let decoded = name.replaceAll('+', ' ');
  try {
    decoded = decodeURIComponent(decoded);
  } catch {
    // an invalid escape: the query parser keeps such a name as it is
  }
  return decoded.toLowerCase() === 'token';
}

export function redactUrl(url: string): string {
  let redacted = '';
  let copiedUpTo = 0;
  for (const match of url.matchAll(PARAMETER_NAME)) {
    if (match.index < copiedUpTo || !isTokenName(match[1]!)) continue; // inside a masked value, or another name
    const valueStart = match.index + match[0].length;
    const valueEnd = url.indexOf('&', valueStart);
    redacted += `${url.slice(copiedUpTo, valueStart)}[redacted]`;
    copiedUpTo = valueEnd === -1 ? url.length : valueEnd;
  }
  return redacted + url.slice(copiedUpTo);
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
export function createLogger(level: EmulatorSettings['logLevel']): Logger {
  return pino({
    level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  });
}

export function logsEachRequest(level: EmulatorSettings['logLevel']): boolean {
  return level === 'debug' || level === 'trace';
}
