import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { consoleErrors, launch } from './browser.js';

// The provider's browser SDK (@gomomento/sdk-web, bundled as an app would bundle it) in headless
// Chromium, from a page on another origin, over gRPC-web (its text mode) on the emulator's HTTP
// port: it subscribes, publishes, and gets what curl publishes, under the same CORS policy;
// configured as docs/sdks.md shows (a token and endpointOverrides with their scheme).

let emulator: RunningEmulator;
let browser: Browser;
let page: Page;
let site: Server;
let errors: { text: string; url: string }[];

async function bundle(): Promise<string> {
  const result = await build({
    stdin: {
      contents: "import * as sdk from '@gomomento/sdk-web'; window.sdk = sdk;",
      resolveDir: fileURLToPath(new URL('../..', import.meta.url)),
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** A page's own origin, serving the bundle and an empty page. */
async function serveSite(sdk: string): Promise<string> {
  site = createServer((request, response) => {
    if (request.url === '/sdk-web.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      return response.end(sdk);
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>sdk-web</title><script src="/sdk-web.js"></script>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', grpcPort: 0 });
  const origin = await serveSite(await bundle());
  browser = await launch();
  page = await browser.newPage();
  errors = consoleErrors(page);
  await page.goto(origin);
  await page.waitForFunction(() => 'sdk' in window, { timeout: 10_000 });
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await emulator?.close();
});

describe('@gomomento/sdk-web in Chromium, over gRPC-web', () => {
  it('subscribes, publishes, and receives its own message and one curl published, in order', async () => {
    // A browser app is given a token (the emulator's, as a disposable token would be) and the
    // endpoint; sdk-web reaches an endpoint over https unless it names its scheme.
    const { token } = await emulator.issueToken({
      permissions: [{ role: 'publishsubscribe', cache: 'default-cache', topic: '*' }],
      tokenId: 'browser',
    });
    await page.evaluate(
      async (endpoint: string, apiKey: string) => {
        const sdk = (window as any).sdk;
        const topics = new sdk.TopicClient({
          configuration: sdk.TopicConfigurations.Default.latest(),
          credentialProvider: sdk.CredentialProvider.fromString({
            apiKey,
            endpointOverrides: { cacheEndpoint: endpoint, controlEndpoint: endpoint, tokenEndpoint: endpoint },
          }),
        });
        const state = { received: [] as string[], heartbeats: 0, errors: [] as string[], published: '' };
        (window as unknown as { state: typeof state }).state = state;
        const subscription = await topics.subscribe('default-cache', 'from-browser', {
          onItem: (item: { valueString(): string }) => state.received.push(item.valueString()),
          onHeartbeat: () => state.heartbeats++,
          onError: (error: { message(): string }) => state.errors.push(error.message()),
        });
        (window as unknown as { topics: unknown }).topics = topics;
        state.published = String(subscription.constructor.name);
      },
      emulator.url,
      token,
    );
    await page.waitForFunction(() => (window as unknown as { state: { heartbeats: number } }).state.heartbeats > 0, {
      timeout: 10_000,
    });
    const published = await page.evaluate(async () => {
      const topics = (window as unknown as { topics: { publish(c: string, t: string, v: string): Promise<object> } })
        .topics;
      const response = await topics.publish('default-cache', 'from-browser', 'hello from the browser');
      return response.constructor.name;
    });
    expect(published).toMatch(/Success/);
    const curl = await fetch(`${emulator.url}/topics/default-cache/from-browser`, {
      method: 'POST',
      headers: { authorization: emulator.apiKey, 'content-type': 'text/plain' },
      body: 'hello from curl',
    });
    expect(curl.status).toBe(204);
    await page.waitForFunction(
      () => (window as unknown as { state: { received: string[] } }).state.received.length >= 2,
      { timeout: 10_000 },
    );
    const state = await page.evaluate(
      () => (window as unknown as { state: { received: string[]; errors: string[] } }).state,
    );
    expect(state.received).toEqual(['hello from the browser', 'hello from curl']);
    expect(state.errors).toEqual([]);
    // Journalled once, as the gRPC calls they are.
    const calls = await emulator.requests({ topic: 'from-browser', operation: 'publish' });
    expect(calls.entries.map((e) => [e.protocol, e.client]).sort()).toEqual([
      ['grpc', 'token:browser'],
      ['http', 'key:#' + calls.entries.find((e) => e.protocol === 'http')!.client!.slice(5)],
    ]);
    expect(errors).toEqual([]);
  });

  it('refuses what its token does not grant, as the browser SDK expects it (PERMISSION_ERROR)', async () => {
    const code = await page.evaluate(async () => {
      const topics = (
        window as unknown as { topics: { publish(c: string, t: string, v: string): Promise<{ errorCode?(): string }> } }
      ).topics;
      const response = await topics.publish('another-cache', 't', 'x');
      return response.errorCode?.();
    });
    expect(code).toBe('PERMISSION_ERROR');
  });
});
