import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { issueToken, signingKeyBytes, type IssuedToken, type TokenRequest } from './auth/tokens.js';
import { Clock } from './clock.js';
import type { EmulatorContext } from './context.js';
import { resolveSettings, type EmulatorSettings } from './settings.js';

export type { EmulatorSettings } from './settings.js';
export { DEV_API_KEY, defaultSettings, SettingsError } from './settings.js';
export type { Permission, Role } from './auth/permissions.js';
export type { IssuedToken, TokenRequest } from './auth/tokens.js';
export type { TopicSnapshot } from './topics/topic.js';
export { version } from './version.js';

export interface RunningEmulator {
  /** Base URL, e.g. http://127.0.0.1:4545 (no trailing slash). */
  url: string;
  /** The first configured API key (full access). */
  apiKey: string;
  settings: EmulatorSettings;
  /** The underlying fastify instance, for `inject()` in tests. */
  app: FastifyInstance;
  context: EmulatorContext;
  /** Signs a token for this emulator, like `topics-emulator token` and POST /_emulator/tokens. */
  issueToken(request: TokenRequest): Promise<IssuedToken>;
  /** Answers every waiting subscriber, stops listening. Safe to call twice. */
  close(): Promise<void>;
}

/** How long close() lets long-poll answers flush before it closes their sockets regardless. */
const FLUSH_BOUND_MS = 500;

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts an emulator in this process. `port: 0` picks a free port. */
export async function startEmulator(options: Partial<EmulatorSettings> = {}): Promise<RunningEmulator> {
  const settings = resolveSettings(options);
  const clock = new Clock();
  const { app, context } = await buildApp(settings, clock);
  await app.listen({ host: settings.host, port: settings.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  const url = `http://${hostForUrl(settings.host)}:${port}`;
  const endpoint = settings.endpoint ?? `${hostForUrl(settings.host)}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    apiKey: settings.apiKeys[0]!,
    settings,
    app,
    context,
    issueToken: (request) => issueToken(request, signingKeyBytes(settings.signingKey), clock.now(), endpoint),
    close() {
      closing ??= (async () => {
        // Answer every waiting subscriber and let the answers leave before sockets are closed.
        const answered = context.store.clear();
        let bound: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.all(answered.map((s) => s.flushed())),
          new Promise((resolve) => (bound = setTimeout(resolve, FLUSH_BOUND_MS))),
        ]);
        clearTimeout(bound);
        await app.close();
      })();
      return closing;
    },
  };
}
