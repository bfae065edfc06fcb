import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import controlDocument from '../../openapi/generated/control.json' with { type: 'json' };
import topicsDocument from '../../openapi/generated/topics.json' with { type: 'json' };
import { buildApp } from '../../emulator/http/app.js';
import { openCore } from '../../emulator/core.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { resolveSettings } from '../../emulator/settings.js';
import { until } from '../helpers/emulator.js';
import { reportFigure } from './figures.js';
import { rawExchange, requestHead } from './raw-http.js';

// A web page cannot abuse the emulator (docs/security.md): a DNS-rebinding
// Host, a foreign Origin on every control operation, cross-site form posts, preflights for every
// route and method of the documents; and the legitimate browser app on http://localhost:5173
// still publishes and subscribes. Every route and method comes from the compiled documents.

const C = 'default-cache';
const APP = 'http://localhost:5173';
const EVIL = 'https://evil.example';
const ADMIN_KEY = 'browser-admin-key-0123';
let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});
const start = async (options: Parameters<typeof startEmulator>[0] = {}) =>
  (emulator = await startEmulator({ port: 0, logLevel: 'silent', ...options }));

type PathItem = Record<string, { operationId?: string; requestBody?: unknown }>;
interface Operation {
  operationId: string;
  method: string;
  /** The document's path, e.g. /_emulator/faults/{faultId}. */
  template: string;
  /** With its parameters filled in. */
  path: string;
  changesState: boolean;
}
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
function operationsOf(document: { paths: unknown }): Operation[] {
  return Object.entries(document.paths as Record<string, PathItem>).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([, op]) => typeof op === 'object' && op?.operationId)
      .map(([method, op]) => ({
        operationId: op.operationId!,
        method: method.toUpperCase(),
        template,
        path: template
          .replace('{tokenId}', 'some-token')
          .replace('{cacheName}', C)
          .replace('{topicName}', 'seeded')
          .replace('{faultId}', 'f1'),
        changesState: !SAFE.has(method.toUpperCase()),
      })),
  );
}
const controlOperations = operationsOf(controlDocument);
const serviceOperations = operationsOf(topicsDocument);
/** Each path of both documents with the methods it has. */
const methodsByPath = new Map<string, { path: string; methods: string[] }>();
for (const op of [...serviceOperations, ...controlOperations]) {
  const entry = methodsByPath.get(op.template) ?? { path: op.path, methods: [] };
  entry.methods.push(op.method);
  methodsByPath.set(op.template, entry);
}

/** Topics with messages, a fault rule, a frozen clock: what a refused request must leave as it was. */
async function seeded(running: RunningEmulator): Promise<() => string> {
  for (const text of ['one', 'two']) {
    const answer = await request(`${running.url}/topics/${C}/seeded`, {
      method: 'POST',
      headers: { authorization: running.apiKey, 'content-type': 'text/plain' },
      body: text,
    });
    expect(answer.statusCode).toBe(204);
    await answer.body.dump();
  }
  running.addFault({ operation: 'publish', topic: 'elsewhere', status: 500 } as never);
  running.setClock({ setTo: '2030-01-01T00:00:00.000Z' });
  return () => JSON.stringify(running.state());
}

interface Sent {
  status: number;
  code: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}
async function send(
  base: string,
  op: { method: string; path: string },
  headers: Record<string, string>,
  body?: string,
): Promise<Sent> {
  const answer = await request(`${base}${op.path}`, { method: op.method as 'POST', headers, body: body ?? null });
  // The event stream never ends on its own: its headers are the answer.
  if (String(answer.headers['content-type']).startsWith('text/event-stream')) {
    answer.body.destroy();
    return { status: answer.statusCode, code: undefined, headers: answer.headers };
  }
  const text = await answer.body.text();
  const code = text.startsWith('{') ? (JSON.parse(text) as { code?: string }).code : undefined;
  return { status: answer.statusCode, code, headers: answer.headers };
}

describe('DNS rebinding: a Host a web page could re-point at 127.0.0.1 is not served', () => {
  it('refuses every route (and unknown ones) under a foreign Host with 403 host_not_allowed, and nothing changes', async () => {
    const running = await start();
    const stateNow = await seeded(running);
    const before = stateNow();
    const port = Number(new URL(running.url).port);
    const operations = [
      ...serviceOperations,
      ...controlOperations,
      { operationId: 'unknown', method: 'GET', path: '/nowhere' },
    ];
    let refused = 0;
    for (const host of [
      `evil.example:${port}`,
      'evil.example',
      `localhost.evil.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `EVIL.example.:${port}`,
    ]) {
      for (const op of operations) {
        const body = op.method === 'GET' ? '' : '{}';
        const head = requestHead(op.method, op.path, [
          ['Host', host],
          ['Authorization', running.apiKey],
          ['Content-Type', 'application/json'],
          ['Content-Length', String(body.length)],
          ['Connection', 'close'],
        ]);
        const outcome = await rawExchange(port, { head, body: Buffer.from(body) });
        const answer = outcome.response!;
        expect(answer.status, `${host} ${op.operationId}`).toBe(403);
        expect(JSON.parse(answer.body.toString()).code, `${host} ${op.operationId}`).toBe('host_not_allowed');
        expect(answer.headers['access-control-allow-origin']).toBeUndefined();
        refused += 1;
      }
    }
    expect(stateNow()).toBe(before);
    reportFigure(
      'rebinding-host',
      `${refused} requests under 5 foreign Hosts to every route: all 403 host_not_allowed, state unchanged`,
      { refused },
    );
  });

  it('serves localhost, *.localhost, IP addresses and the allowed hosts, with any port', async () => {
    const running = await start({ allowedHosts: ['emulator.test', '.dev.test'] });
    const port = Number(new URL(running.url).port);
    const served = [
      'localhost',
      `localhost:${port}`,
      `app.localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      `10.1.2.3:${port}`,
      `emulator.test:${port}`,
      `api.dev.test`,
      'dev.test:1',
    ];
    for (const host of served) {
      const outcome = await rawExchange(port, {
        head: requestHead('GET', '/_emulator/health', [
          ['Host', host],
          ['Connection', 'close'],
        ]),
      });
      expect(outcome.response!.status, host).toBe(200);
    }
    for (const host of ['other.test', 'emulator.test.evil.example', 'evildev.test']) {
      const outcome = await rawExchange(port, {
        head: requestHead('GET', '/_emulator/health', [
          ['Host', host],
          ['Connection', 'close'],
        ]),
      });
      expect(outcome.response!.status, host).toBe(403);
    }
  });

  it("beyond loopback the check is off, unless hosts are allowed; '*' turns it off everywhere", async () => {
    // Built, not listening: the host setting only decides the policy here.
    const answer = async (settings: Parameters<typeof resolveSettings>[0], host: string) => {
      const core = await openCore(resolveSettings({ logLevel: 'silent', adminKey: ADMIN_KEY, ...settings }));
      core.controls.started = true; // as start.ts says once its doors serve: this app is never listened on
      const { app } = await buildApp(core);
      try {
        return (await app.inject({ method: 'GET', url: '/_emulator/health', headers: { host } })).statusCode;
      } finally {
        await app.close();
      }
    };
    expect(await answer({ host: '0.0.0.0' }, 'emulator:4545')).toBe(200);
    expect(await answer({ host: '0.0.0.0', allowedHosts: ['emulator'] }, 'emulator:4545')).toBe(200);
    expect(await answer({ host: '0.0.0.0', allowedHosts: ['emulator'] }, 'evil.example:4545')).toBe(403);
    expect(await answer({ host: '0.0.0.0', allowedHosts: ['emulator'] }, '172.17.0.2:4545')).toBe(200);
    expect(await answer({ host: '127.0.0.1', allowedHosts: ['*'] }, 'evil.example:4545')).toBe(200);
  });
});

describe('the control plane is same-origin only: a foreign page cannot call any control operation', () => {
  it('refuses every control operation from a foreign or merely local origin with 403 origin_not_allowed and no CORS grant; nothing changes', async () => {
    const running = await start();
    const stateNow = await seeded(running);
    const before = stateNow();
    let refused = 0;
    for (const origin of [EVIL, APP, 'null', 'http://127.0.0.1:1', `${running.url}.evil.example`]) {
      for (const op of controlOperations) {
        const headers: Record<string, string> = { origin };
        if (op.changesState) headers['content-type'] = 'application/json';
        const answer = await send(
          running.url,
          op,
          headers,
          op.changesState && op.method !== 'DELETE'
            ? '{"permissions":[{"role":"publishsubscribe","cache":"*"}]}'
            : undefined,
        );
        expect([answer.status, answer.code], `${origin} ${op.operationId}`).toEqual([403, 'origin_not_allowed']);
        expect(answer.headers['access-control-allow-origin'], `${origin} ${op.operationId}`).toBeUndefined();
        refused += 1;
      }
    }
    // A probe's finding: POST /_emulator/tokens from evil.example was answered 201.
    const mint = await send(
      running.url,
      { method: 'POST', path: '/_emulator/tokens' },
      { origin: EVIL, 'content-type': 'application/json' },
      JSON.stringify({ permissions: [{ role: 'publishsubscribe', cache: '*' }], ttlSeconds: 60 }),
    );
    expect([mint.status, mint.code, mint.headers['access-control-allow-origin']]).toEqual([
      403,
      'origin_not_allowed',
      undefined,
    ]);
    // The plane is the matched route's, so another spelling of the path that reaches a control operation is refused too.
    expect((await send(running.url, { method: 'POST', path: '/%5Femulator/reset' }, { origin: APP })).code).toBe(
      'origin_not_allowed',
    );
    expect(stateNow()).toBe(before);
    reportFigure(
      'foreign-origin-control',
      `${controlOperations.length} control operations x 5 foreign origins: ${refused} requests 403 origin_not_allowed, no CORS grant, state unchanged`,
      { operations: controlOperations.length, refused },
    );
  });

  it('serves its own pages (same origin) and the configured control origins, which get the CORS grant', async () => {
    const other = 'https://tools.example';
    const running = await start({ controlCorsOrigins: [other] });
    for (const origin of [running.url, other]) {
      for (const op of controlOperations.filter((o) => !o.changesState)) {
        const answer = await send(running.url, op, { origin });
        expect(answer.code, `${origin} ${op.operationId}`).not.toBe('origin_not_allowed');
        expect(answer.headers['access-control-allow-origin'], `${origin} ${op.operationId}`).toBe(
          origin === other ? other : undefined,
        );
      }
      const limits = await send(
        running.url,
        { method: 'PUT', path: '/_emulator/limits' },
        { origin, 'content-type': 'application/json' },
        '{"operationsPerSecond":5}',
      );
      expect(limits.status, origin).toBe(200);
    }
    // A configured service origin gains nothing on the control plane.
    await running.close();
    const service = await start({ corsOrigins: [other] });
    expect((await send(service.url, { method: 'POST', path: '/_emulator/reset' }, { origin: other })).code).toBe(
      'origin_not_allowed',
    );
  });

  it('with an admin key, a browser call without it gets the JSON 401 admin_key_required, readable by an allowed origin', async () => {
    const other = 'https://tools.example';
    const running = await start({ adminKey: ADMIN_KEY, controlCorsOrigins: [other] });
    for (const origin of [running.url, other]) {
      const without = await send(running.url, { method: 'POST', path: '/_emulator/reset' }, { origin });
      expect([without.status, without.code], origin).toEqual([401, 'admin_key_required']);
      const wrong = await send(
        running.url,
        { method: 'POST', path: '/_emulator/reset' },
        { origin, 'x-emulator-admin-key': `${ADMIN_KEY}x` },
      );
      expect([wrong.status, wrong.code], origin).toEqual([403, 'admin_key_invalid']);
      if (origin === other)
        expect([without.headers['access-control-allow-origin'], wrong.headers['access-control-allow-origin']]).toEqual([
          other,
          other,
        ]);
      const right = await send(
        running.url,
        { method: 'POST', path: '/_emulator/reset' },
        { origin, 'x-emulator-admin-key': ADMIN_KEY },
      );
      expect(right.status, origin).toBe(200);
    }
    // The preflight lets the browser send the key.
    const preflight = await send(
      running.url,
      { method: 'OPTIONS', path: '/_emulator/reset' },
      {
        origin: other,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-emulator-admin-key',
      },
    );
    expect(preflight.status).toBe(204);
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('x-emulator-admin-key');
  });

  it("'*' on the control plane needs an admin key: without one the emulator refuses to start", async () => {
    await expect(startEmulator({ port: 0, logLevel: 'silent', controlCorsOrigins: ['*'] })).rejects.toThrow(
      /--control-cors-origin '\*'.*admin key/,
    );
    const running = await start({ controlCorsOrigins: ['*'], adminKey: ADMIN_KEY });
    const answer = await send(
      running.url,
      { method: 'GET', path: '/_emulator/state' },
      { origin: EVIL, 'x-emulator-admin-key': ADMIN_KEY },
    );
    expect([answer.status, answer.headers['access-control-allow-origin']]).toEqual([200, '*']);
  });
});

describe('cross-site form posts cannot change anything', () => {
  const SIMPLE_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain'];

  it('every state-changing control operation refuses the simple-request content types (400 unsupported_content_type), empty body or not', async () => {
    const running = await start();
    const stateNow = await seeded(running);
    const before = stateNow();
    const changing = controlOperations.filter((op) => op.changesState);
    let refused = 0;
    for (const op of changing) {
      for (const type of SIMPLE_TYPES) {
        for (const body of ['', '{}', 'a=b']) {
          const answer = await send(running.url, op, { 'content-type': type }, body);
          expect([answer.status, answer.code], `${op.operationId} ${type} '${body}'`).toEqual([
            400,
            'unsupported_content_type',
          ]);
          refused += 1;
        }
      }
    }
    expect(stateNow()).toBe(before);
    reportFigure(
      'form-posts',
      `${changing.length} state-changing control operations x 3 simple content types x 3 bodies: ${refused} requests 400, state unchanged`,
      { operations: changing.length, refused },
    );
  });

  it('a form post or no-cors fetch from another site is refused by its Origin, bodiless ones too; without Origin, by Sec-Fetch-Site', async () => {
    const running = await start();
    const stateNow = await seeded(running);
    const before = stateNow();
    const bodiless = [
      { method: 'POST', path: '/_emulator/reset' },
      { method: 'DELETE', path: '/_emulator/faults' },
      { method: 'DELETE', path: '/_emulator/chaos' },
    ];
    for (const op of bodiless) {
      expect((await send(running.url, op, { origin: EVIL })).code, op.path).toBe('origin_not_allowed');
      expect((await send(running.url, op, { 'sec-fetch-site': 'cross-site' })).code, op.path).toBe(
        'origin_not_allowed',
      );
      expect((await send(running.url, op, { 'sec-fetch-site': 'same-site' })).code, op.path).toBe('origin_not_allowed');
    }
    // The service routes too: a form on another site cannot publish with the well-known dev key.
    const publish = { method: 'POST', path: `/topics/${C}/seeded?token=${running.apiKey}` };
    for (const type of SIMPLE_TYPES)
      expect((await send(running.url, publish, { origin: EVIL, 'content-type': type }, 'forged')).code).toBe(
        'origin_not_allowed',
      );
    expect(
      (await send(running.url, publish, { 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain' }, 'forged'))
        .code,
    ).toBe('origin_not_allowed');
    expect(stateNow()).toBe(before);
    // A navigation or a read from another site (a link to the dashboard) is not refused.
    expect(
      (await send(running.url, { method: 'GET', path: '/_emulator/health' }, { 'sec-fetch-site': 'cross-site' }))
        .status,
    ).toBe(200);
  });
});

describe('CORS preflights list exactly the methods of each route, from the documents', () => {
  it('every path of both documents answers a preflight for each of its methods with exactly its methods', async () => {
    const other = 'https://tools.example';
    const running = await start({ controlCorsOrigins: [other] });
    let preflights = 0;
    for (const [template, { path, methods }] of methodsByPath) {
      const origin = template.startsWith('/_emulator/') ? other : APP;
      for (const method of methods) {
        const answer = await send(
          running.url,
          { method: 'OPTIONS', path },
          {
            origin,
            'access-control-request-method': method,
            'access-control-request-headers': 'authorization, content-type',
          },
        );
        expect(answer.status, `${method} ${template}`).toBe(204);
        expect(answer.headers['access-control-allow-origin'], `${method} ${template}`).toBe(origin);
        const listed = String(answer.headers['access-control-allow-methods'])
          .split(',')
          .map((m) => m.trim());
        expect(listed.sort(), `${method} ${template}`).toEqual([...methods].sort());
        expect(String(answer.headers['access-control-allow-headers']).toLowerCase()).toBe(
          'authorization, content-type',
        );
        preflights += 1;
      }
      // An OPTIONS that is not a preflight is answered like any request: 204 and Allow.
      const plain = await send(running.url, { method: 'OPTIONS', path }, {});
      expect(plain.status, template).toBe(204);
      expect(String(plain.headers.allow).split(', ').sort(), template).toEqual([...methods, 'OPTIONS'].sort());
    }
    expect(preflights).toBe(serviceOperations.length + controlOperations.length);
    // The dashboard's own kind of call: PUT /_emulator/limits.
    const limits = await send(
      running.url,
      { method: 'OPTIONS', path: '/_emulator/limits' },
      { origin: other, 'access-control-request-method': 'PUT' },
    );
    expect(String(limits.headers['access-control-allow-methods'])).toContain('PUT');
    // A path the emulator does not serve (a client's other API): the preflight passes, so the
    // page reads the 404 that follows, with its body, instead of a network error.
    const unknown = await send(
      running.url,
      { method: 'OPTIONS', path: '/vectors/default-index' },
      { origin: APP, 'access-control-request-method': 'PUT' },
    );
    expect([unknown.status, unknown.headers['access-control-allow-origin']]).toEqual([204, APP]);
    expect(String(unknown.headers['access-control-allow-methods'])).toContain('PUT');
    const followed = await send(running.url, { method: 'PUT', path: '/vectors/default-index' }, { origin: APP }, 'x');
    expect([followed.status, followed.code, followed.headers['access-control-allow-origin']]).toEqual([
      404,
      'route_not_found',
      APP,
    ]);
    // Without Origin, OPTIONS there is the 404 itself.
    const plain = await send(running.url, { method: 'OPTIONS', path: '/nowhere' }, {});
    expect([plain.status, plain.code]).toEqual([404, 'route_not_found']);
    reportFigure(
      'preflights',
      `${methodsByPath.size} paths, ${preflights} route/method preflights: each lists exactly its path's methods`,
      { paths: methodsByPath.size, preflights },
    );
  });

  it('a foreign origin gets no preflight anywhere; a local one none on the control plane unless configured', async () => {
    const running = await start();
    for (const [template, { path, methods }] of methodsByPath) {
      for (const origin of template.startsWith('/_emulator/') ? [EVIL, APP] : [EVIL]) {
        const answer = await send(
          running.url,
          { method: 'OPTIONS', path },
          { origin, 'access-control-request-method': methods[0]! },
        );
        expect(
          [answer.status, answer.code, answer.headers['access-control-allow-origin']],
          `${origin} ${template}`,
        ).toEqual([403, 'origin_not_allowed', undefined]);
      }
    }
  });
});

describe('the legitimate browser app on http://localhost:5173 publishes and subscribes', () => {
  const preflight = (url: string, origin: string, method: string) =>
    send(
      url,
      { method: 'OPTIONS', path: '' },
      {
        origin,
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization, content-type',
      },
    );

  it('preflights succeed; answers, errors and 429s carry its origin and expose Retry-After', async () => {
    const running = await start({ maxWaitingSubscribers: 1 });
    const topic = `${running.url}/topics/${C}/browser`;
    for (const method of ['POST', 'GET']) {
      const answer = await preflight(topic, APP, method);
      expect([answer.status, answer.headers['access-control-allow-origin']], method).toEqual([204, APP]);
      expect(String(answer.headers['access-control-allow-methods'])).toContain(method);
      expect(String(answer.headers.vary).toLowerCase()).toContain('origin');
    }
    const published = await send(
      topic,
      { method: 'POST', path: '' },
      { origin: APP, 'sec-fetch-site': 'same-site', authorization: running.apiKey, 'content-type': 'application/json' },
      '{"from":"browser"}',
    );
    expect([published.status, published.headers['access-control-allow-origin']]).toEqual([204, APP]);
    const read = await request(`${topic}?sequence_number=1`, {
      headers: { origin: APP, 'sec-fetch-site': 'same-site', authorization: running.apiKey },
    });
    expect(read.headers['access-control-allow-origin']).toBe(APP);
    expect(await read.body.json()).toMatchObject({
      items: [{ item: { value: { text: '{"from":"browser"}' } } }],
    });
    const refused = await send(topic, { method: 'POST', path: '' }, { origin: APP, 'content-type': 'text/plain' }, 'x');
    expect([refused.status, refused.code, refused.headers['access-control-allow-origin']]).toEqual([
      401,
      'missing_token',
      APP,
    ]);
    // A 429 (the cap on waiting subscribers): the browser may read Retry-After.
    const waiting = request(`${running.url}/topics/${C}/quiet`, {
      headers: { origin: APP, authorization: running.apiKey },
    });
    await until(() => running.context.waiting.size === 1, 'the first subscriber to wait');
    const throttled = await send(
      running.url,
      { method: 'GET', path: `/topics/${C}/quiet-too` },
      { origin: APP, authorization: running.apiKey },
    );
    expect([
      throttled.status,
      throttled.headers['retry-after'],
      throttled.headers['access-control-allow-origin'],
    ]).toEqual([429, '1', APP]);
    expect(String(throttled.headers['access-control-expose-headers']).toLowerCase()).toContain('retry-after');
    await running.close();
    await (await waiting).body.dump();
  });

  it('every local origin is served; a configured one is added; other origins are refused; * grants any', async () => {
    const app = 'https://app.example';
    const running = await start({ corsOrigins: [app] });
    const topic = `${running.url}/topics/${C}/browser`;
    for (const origin of [
      APP,
      'http://127.0.0.1:3000',
      'http://app.localhost:8080',
      'http://[::1]:4200',
      'https://localhost',
      app,
    ]) {
      const answer = await send(
        topic,
        { method: 'POST', path: '' },
        { origin, authorization: running.apiKey, 'content-type': 'text/plain' },
        'x',
      );
      expect([answer.status, answer.headers['access-control-allow-origin']], origin).toEqual([204, origin]);
    }
    for (const origin of [
      EVIL,
      'null',
      `${app}.evil.example`,
      'http://192.168.1.20:3000',
      'http://localhost.evil.example',
    ]) {
      const answer = await send(
        topic,
        { method: 'POST', path: '' },
        { origin, authorization: running.apiKey, 'content-type': 'text/plain' },
        'x',
      );
      expect([answer.status, answer.code, answer.headers['access-control-allow-origin']], origin).toEqual([
        403,
        'origin_not_allowed',
        undefined,
      ]);
    }
    await running.close();
    const open = await start({ corsOrigins: ['*'] });
    const anyOrigin = await send(
      `${open.url}/topics/${C}/browser`,
      { method: 'POST', path: '' },
      { origin: EVIL, authorization: open.apiKey, 'content-type': 'text/plain' },
      'x',
    );
    expect([anyOrigin.status, anyOrigin.headers['access-control-allow-origin']]).toEqual([204, '*']);
    // Behind a CDN that strips Origin (and caches one answer for every page): any origin still.
    const stripped = await send(
      `${open.url}/topics/${C}/browser`,
      { method: 'POST', path: '' },
      { authorization: open.apiKey, 'content-type': 'text/plain' },
      'x',
    );
    expect([stripped.status, stripped.headers['access-control-allow-origin']]).toEqual([204, '*']);
    expect(stripped.headers['access-control-expose-headers']).toBe('Retry-After');
    // The control plane is not opened by --cors-origin '*'.
    const control = await send(open.url, { method: 'GET', path: '/_emulator/state' }, {});
    expect(control.headers['access-control-allow-origin']).toBeUndefined();
  });
});
