import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { rawExchange } from '../reliability/raw-http.js';

// Probe: `Host: [::1]evil.example` (an IP literal with a name after it) and an HTTP/1.0 request
// without Host passed the DNS-rebinding host check on loopback. No browser can send either; they
// are refused all the same, as a Host that is not a name and an optional port is.

let emulator: RunningEmulator;
let port: number;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
  port = Number(new URL(emulator.url).port);
});
afterAll(async () => {
  await emulator.close();
});

const statusOf = async (head: string) => (await rawExchange(port, { head })).response?.status;

describe('the host check on loopback', () => {
  it.each([
    ['an IP literal with a name after it', 'GET /_emulator/health HTTP/1.1\r\nHost: [::1]evil.example\r\n\r\n'],
    ['a name with a port that is not one', 'GET /_emulator/health HTTP/1.1\r\nHost: localhost:80evil\r\n\r\n'],
    ['HTTP/1.0 without a Host', 'GET /_emulator/health HTTP/1.0\r\n\r\n'],
  ])('refuses %s with 403', async (_what, head) => {
    expect(await statusOf(head)).toBe(403);
  });

  it.each([
    ['[::1] with a port', 'GET /_emulator/health HTTP/1.1\r\nHost: [::1]:4545\r\nConnection: close\r\n\r\n'],
    ['localhost', 'GET /_emulator/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'],
    ['HTTP/1.0 with a Host', 'GET /_emulator/health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n'],
  ])('serves %s', async (_what, head) => {
    expect(await statusOf(head)).toBe(200);
  });
});
