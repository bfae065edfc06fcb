import type { FastifyServerOptions } from 'fastify';
import type { EmulatorSettings } from './settings.js';

// Credentials never reach a log line: the token query parameter is masked in every URL we
// log, and headers that carry credentials are censored wherever they appear.

const TOKEN_IN_QUERY = /([?&]token=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(TOKEN_IN_QUERY, '$1[redacted]');
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

export function loggerOptions(level: EmulatorSettings['logLevel']): FastifyServerOptions['logger'] {
  return {
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
}
