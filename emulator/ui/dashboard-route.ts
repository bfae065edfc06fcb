import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { EmulatorError } from '../errors.js';
import { packageRoot } from '../package-root.js';

// GET /_emulator/ui: the dashboard, built into dist/dashboard/ (scripts/build-dashboard.mjs) and
// served from the emulator's own port. The page is open (it holds no state: what it shows comes
// from the control plane, which asks for the admin key when one is set); the browser guard, the
// Host check and the control plane's same-origin rule apply to it like to every /_emulator/ route.
// Its Content-Security-Policy lets it load and call nothing but its own origin.

const FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
  'dashboard.css': 'text/css; charset=utf-8',
};

/** The paths the dashboard is served at (its files are not journalled: journal/observers.ts). */
export const DASHBOARD_PATHS: ReadonlySet<string> = new Set([
  '/_emulator/ui',
  '/_emulator/ui/',
  ...Object.keys(FILES)
    .filter((name) => name !== 'index.html')
    .map((name) => `/_emulator/ui/${name}`),
]);

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/** Where the built dashboard is: dist/dashboard/ in the package, whether this code runs compiled or from source. */
export function builtDashboardDirectory(): string {
  return join(packageRoot, 'dist', 'dashboard');
}

export function registerDashboard(app: FastifyInstance, directory = builtDashboardDirectory()): void {
  // Read on first request, then kept: start-up reads nothing.
  const cache = new Map<string, Buffer>();
  const fileOf = (name: string): Buffer => {
    let bytes = cache.get(name);
    if (bytes === undefined) {
      try {
        bytes = readFileSync(join(directory, name));
      } catch {
        throw new EmulatorError(
          'route_not_found',
          'The dashboard is not built in this checkout: run npm run build (it writes dist/dashboard/).',
        );
      }
      cache.set(name, bytes);
    }
    return bytes;
  };
  const send = (name: string) => (_request: unknown, reply: FastifyReply) =>
    reply
      .code(200)
      .headers({ 'content-type': FILES[name]!, ...SECURITY_HEADERS })
      .send(fileOf(name));
  for (const path of DASHBOARD_PATHS) app.get(path, send(path.split('/')[3] || 'index.html'));
}
