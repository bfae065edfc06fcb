import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { errorHandler } from '../../emulator/http/error-handler.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { registerDashboard } from '../../emulator/ui/dashboard-route.js';
import { createLogger } from '../../emulator/logging.js';

// GET /_emulator/ui: the built files, with a policy that lets the page load nothing from elsewhere.

let emulator: RunningEmulator | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function builtIn(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dashboard-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(dir, 'dashboard.js'), 'console.log(1)');
  writeFileSync(join(dir, 'dashboard.css'), 'body{}');
  return `${dir}/`;
}

async function appWith(directory: string) {
  const app = Fastify();
  app.setErrorHandler(errorHandler(1024, createLogger('silent')));
  registerDashboard(app, directory);
  await app.ready();
  return app;
}

describe('the dashboard route', () => {
  it('serves the page, its script and its stylesheet with their types and a same-origin-only policy', async () => {
    const app = await appWith(builtIn());
    for (const [url, type, body] of [
      ['/_emulator/ui', 'text/html; charset=utf-8', '<!doctype html><title>t</title>'],
      ['/_emulator/ui/', 'text/html; charset=utf-8', '<!doctype html><title>t</title>'],
      ['/_emulator/ui/dashboard.js', 'text/javascript; charset=utf-8', 'console.log(1)'],
      ['/_emulator/ui/dashboard.css', 'text/css; charset=utf-8', 'body{}'],
    ] as const) {
      const answer = await app.inject({ url });
      expect([answer.statusCode, answer.headers['content-type'], answer.body], url).toEqual([200, type, body]);
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
      expect(answer.headers['content-security-policy']).toContain("connect-src 'self'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
    expect((await app.inject({ url: '/_emulator/ui/other.js' })).statusCode).toBe(404);
    await app.close();
  });

  it('answers a JSON 404 that says how to build it when the dashboard is not built', async () => {
    const app = await appWith(join(tmpdir(), 'no-such-dashboard-dir/'));
    const answer = await app.inject({ url: '/_emulator/ui' });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ code: 'route_not_found', message: expect.stringContaining('npm run build') });
    await app.close();
  });

  it('is served without the admin key, refused to another origin, and not served with the control plane off', async () => {
    emulator = await startEmulator({ port: 0, logLevel: 'silent', adminKey: 'dashboard-admin-key' });
    const page = await fetch(`${emulator.url}/_emulator/ui`);
    await page.body?.cancel();
    expect(page.status).not.toBe(401);
    const foreign = await fetch(`${emulator.url}/_emulator/ui`, { headers: { origin: 'https://evil.example' } });
    expect([foreign.status, ((await foreign.json()) as { code: string }).code]).toEqual([403, 'origin_not_allowed']);
    await emulator.close();
    emulator = await startEmulator({ port: 0, logLevel: 'silent', controlPlane: false });
    const off = await fetch(`${emulator.url}/_emulator/ui`);
    expect([off.status, ((await off.json()) as { code: string }).code]).toEqual([404, 'route_not_found']);
  });
});
