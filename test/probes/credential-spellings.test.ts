import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { wireData } from '../../emulator/live/wire.js';
import { redactUrl } from '../../emulator/logging.js';

// A key spelled where a router or reader may take it for one: after '#' in the request line
// (served with it, before), or in a topic name with an encoded '?' or '#', or a query name with
// spaces. None is accepted from a fragment, and none is kept by the journal or the event stream.

const KEY = 'probe-key-AAAA-1234567890';
let emulator: RunningEmulator;
const seen: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', apiKeys: [KEY] });
  // What the event stream (GET /_emulator/events) sends of each event.
  emulator.context.events.on((event) => void seen.push(JSON.stringify(wireData(event))), ['request', 'published']);
});
afterAll(async () => {
  await emulator?.close();
});

/** One raw HTTP/1.1 request, as a client that writes its own request line sends it. */
function raw(requestLine: string, headers: string[] = []): Promise<string> {
  const { port } = new URL(emulator.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.end(
        `${requestLine}\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 1\r\nConnection: close\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\nm`,
      );
    });
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

async function kept(): Promise<string> {
  const { entries } = await emulator.requests({});
  return JSON.stringify(entries) + seen.join('\n');
}

describe('a credential spelled where it may be mistaken for one', () => {
  it('a #token= fragment in the request line is refused 400, not served with it, and kept nowhere', async () => {
    const answer = await raw(`POST /topics/default-cache/t#token=${KEY} HTTP/1.1`);
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toContain('"code":"invalid_request"');
    expect(await kept()).not.toContain(KEY);
  });

  it('a topic named with an encoded ? or # holding the key is served as a name, and the journal masks it', async () => {
    for (const encoded of ['%3F', '%23']) {
      const answer = await raw(`POST /topics/default-cache/t${encoded}token=${KEY} HTTP/1.1`, [
        `Authorization: ${KEY}`,
      ]);
      expect(answer).toMatch(/^HTTP\/1\.1 204/);
    }
    expect(await kept()).not.toContain(KEY);
  });

  it('a query name with spaces around token is masked in a logged URL', () => {
    for (const name of ['token+', 'token%20', '+token'])
      expect(redactUrl(`/topics/c/t?${name}=${KEY}`)).not.toContain(KEY);
  });
});
