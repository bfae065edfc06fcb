import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';

// Probe (health said ready before every door was): started with --https-port and a fresh
// --tls-dir, GET /_emulator/health answered 200 while /_emulator/tls/ca.pem was still 404 and the
// HTTPS port not listening (about a second, while the authority is made). Every CI script and
// the testcontainers wait strategy trust health: it now answers 503 `starting` until every door
// the settings ask for serves.

let emulator: RunningEmulator | undefined;
let tlsDir: string | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
  if (tlsDir) rmSync(tlsDir, { recursive: true, force: true });
});

/** A port free now (the emulator must be told its HTTP port to be watched while it starts). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe('health while the emulator starts', () => {
  it('is 503 starting until the HTTPS door and its authority serve, then 200', async () => {
    tlsDir = mkdtempSync(join(tmpdir(), 'health-tls-'));
    const port = await freePort();
    const starting = startEmulator({ port, host: '127.0.0.1', logLevel: 'silent', httpsPort: 0, grpcPort: 0, tlsDir });
    const seen: string[] = [];
    let done = false;
    void starting.then(
      () => (done = true),
      () => (done = true),
    );
    // Every answer health gives while starting, until its first 200.
    for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
      const health = await fetch(`http://127.0.0.1:${port}/_emulator/health`).catch(() => undefined);
      if (health === undefined) {
        if (done) break;
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      const body = (await health.json()) as { status: string };
      seen.push(`${health.status} ${body.status}`);
      if (health.status === 200) {
        // Ready means the authority is served now.
        const authority = await fetch(`http://127.0.0.1:${port}/_emulator/tls/ca.pem`);
        expect(authority.status).toBe(200);
        break;
      }
    }
    emulator = await starting;
    expect(seen.at(-1)).toBe('200 ok');
    expect(seen.every((s) => s === '503 starting' || s === '200 ok')).toBe(true);
    expect(emulator.httpsUrl).toBeDefined();
  });
});
