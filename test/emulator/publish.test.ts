import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testEmulator, type TestEmulator } from '../helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator({ payloadLimitBytes: 64, caches: ['default-cache', 'other'] });
});
afterAll(() => t.close());

const C = 'default-cache';
let n = 0;
const fresh = () => `publish-${++n}`;

describe('publish', () => {
  it('answers 204 with an empty body and creates the topic on first use', async () => {
    const topic = fresh();
    const reply = await t.publish(C, topic, 'hello');
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    expect(t.emulator.context.store.content(C, topic)).toMatchObject({
      nextSequenceNumber: 2,
      messages: [{ sequenceNumber: 1 }],
    });
  });

  it.each([
    ['text/plain', 'text'],
    ['text/plain; charset=utf-8', 'text'],
    ['Text/Plain; Charset="UTF-8"', 'text'],
    ['application/json', 'text'],
    ['application/x-www-form-urlencoded', 'text'],
    ['text/plain;charset=UTF-8', 'text'], // fetch() with a string body
    ['application/json; charset=utf-8', 'text'],
    ['APPLICATION/JSON;CHARSET=UTF-8', 'text'],
    ['application/cloudevents+json', 'text'], // EventBridge API destinations
    ['application/vnd.api+json; charset=utf-8', 'text'],
    ['text/markdown', 'text'],
    ['text/csv; header=present', 'text'],
    ['application/octet-stream', 'binary'],
    ['octet-stream', 'binary'], // an older page of the provider's docs
    ['image/png', 'binary'], // not listed: binary, with a warning
  ])('delivers a %s body as %s', async (contentType, kind) => {
    const topic = fresh();
    const body = kind === 'text' ? '{"a":"é"}' : new Uint8Array([0, 255, 128, 10]);
    expect((await t.publish(C, topic, body, { contentType })).status).toBe(204);
    const reply = await t.subscribe(C, topic, { seq: 1, page: 0 });
    const value = reply.json.items[0].item.value;
    if (kind === 'text') expect(value).toEqual({ text: '{"a":"é"}' });
    else expect(Buffer.from(value.binary, 'base64')).toEqual(Buffer.from(body as Uint8Array));
  });

  it('keeps text byte-exact: a byte-order mark and every code point survive', async () => {
    const topic = fresh();
    const text = '\uFEFFa\u0000😀\u{10FFFF}';
    expect((await t.publish(C, topic, text)).status).toBe(204);
    expect((await t.subscribe(C, topic, { seq: 1 })).json.items[0].item.value.text).toBe(text);
  });

  it('accepts an empty message', async () => {
    const topic = fresh();
    expect((await t.publish(C, topic, '')).status).toBe(204);
    expect((await t.publish(C, topic, new Uint8Array(), { contentType: 'application/octet-stream' })).status).toBe(204);
    const items = (await t.subscribe(C, topic, { seq: 1 })).json.items;
    expect(items.map((i: any) => i.item.value)).toEqual([{ text: '' }, { binary: '' }]);
  });

  it('refuses invalid UTF-8 under a text type, and stores nothing', async () => {
    const topic = fresh();
    const reply = await t.publish(C, topic, new Uint8Array([0x68, 0xff, 0xfe]), { contentType: 'text/plain' });
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe('invalid_utf8');
    expect(t.emulator.context.store.content(C, topic)?.messages.length ?? 0).toBe(0);
  });

  it('refuses a charset other than UTF-8', async () => {
    const reply = await t.publish(C, fresh(), 'abc', { contentType: 'text/plain; charset=iso-8859-1' });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({
      code: 'unsupported_content_type',
      message: expect.stringContaining('iso-8859-1'),
    });
  });

  it('answers 400 for a missing content type', async () => {
    const reply = await t.publish(C, fresh(), new Uint8Array([1, 2]), { contentType: null });
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe('unsupported_content_type');
    expect(reply.json.message).toMatch(/required/);
  });

  it('publishes a type it does not list as binary, and warns once per type naming the risk', async () => {
    const warn = vi.spyOn(t.emulator.context.log, 'warn');
    const topic = fresh();
    for (const contentType of ['image/gif', 'IMAGE/GIF; x=1', 'video/mp4']) {
      expect((await t.publish(C, topic, new Uint8Array([7]), { contentType })).status).toBe(204);
    }
    expect((await t.publish(C, topic, new Uint8Array(), { contentType: 'audio/ogg' })).status).toBe(204); // empty body too
    const warnings = warn.mock.calls.map((call) => String(call[1]));
    expect(warnings.filter((w) => w.includes("'image/gif'"))).toHaveLength(1);
    expect(warnings.filter((w) => w.includes("'video/mp4'"))).toHaveLength(1);
    expect(warnings[0]).toMatch(/published as binary.*live service may refuse it.*--content-types strict/);
    const items = (await t.subscribe(C, topic, { seq: 1 })).json.items;
    expect(items.map((i: any) => i.item.value)).toEqual([
      { binary: 'Bw==' },
      { binary: 'Bw==' },
      { binary: 'Bw==' },
      { binary: '' },
    ]);
  });

  it.each([
    ['an unknown content type', 'image/png', /image\/png/],
    ['a multipart body', 'multipart/form-data; boundary=x', /multipart/],
    ['an empty body of an unknown type', 'audio/ogg', /audio\/ogg/],
  ])(
    'with --content-types strict, answers 400 for %s, naming the supported types',
    async (what, contentType, mention) => {
      const strict = await testEmulator({ contentTypes: 'strict' });
      try {
        const body = what.includes('empty') ? new Uint8Array() : new Uint8Array([1, 2]);
        const reply = await strict.publish(C, 'strict', body, { contentType });
        expect(reply.status).toBe(400);
        expect(reply.json.code).toBe('unsupported_content_type');
        expect(reply.json.message).toMatch(mention);
        expect(reply.json.message).toContain('text/plain');
        // The listed types and ranges still work.
        expect((await strict.publish(C, 'strict', '{}', { contentType: 'application/cloudevents+json' })).status).toBe(
          204,
        );
      } finally {
        await strict.close();
      }
    },
  );

  it('accepts a body at the payload limit and answers 413 just over it', async () => {
    const topic = fresh();
    expect((await t.publish(C, topic, 'x'.repeat(64))).status).toBe(204);
    const over = await t.publish(C, topic, 'x'.repeat(65));
    expect(over.status).toBe(413);
    expect(over.json).toEqual({
      code: 'payload_too_large',
      message: 'The message is larger than the payload limit of 64 bytes.',
    });
    expect(t.emulator.context.store.content(C, topic)?.messages.length).toBe(1);
  });

  it('counts the limit in bytes, not characters', async () => {
    expect((await t.publish(C, fresh(), 'é'.repeat(32))).status).toBe(204); // 64 bytes
    expect((await t.publish(C, fresh(), 'é'.repeat(33))).status).toBe(413);
  });

  it('answers 404 for a cache that does not exist, and creates nothing', async () => {
    const reply = await t.publish('no-such-cache', 'x', 'hello');
    expect(reply.status).toBe(404);
    expect(reply.json.code).toBe('cache_not_found');
    expect(t.emulator.context.store.hasCache('no-such-cache')).toBe(false);
  });

  it('keeps caches apart: the same topic name in two caches is two topics', async () => {
    const topic = fresh();
    await t.publish(C, topic, 'in default');
    await t.publish('other', topic, 'in other');
    expect((await t.subscribe('other', topic, { seq: 1 })).json.items).toHaveLength(1);
    expect((await t.subscribe('other', topic, { seq: 1 })).json.items[0].item.value.text).toBe('in other');
  });

  it('takes names with any URL-safe or percent-encoded characters', async () => {
    for (const topic of ['a.b-c_d~e', 'with space', 'ünïcödé', 'slash/inside', 'x'.repeat(255)]) {
      expect((await t.publish(C, topic, 'v')).status, topic).toBe(204);
      expect((await t.subscribe(C, topic, { seq: 1 })).json.items[0].item.value.text).toBe('v');
    }
  });

  it('answers 400 for an empty or over-long name', async () => {
    expect((await fetch(`${t.url}/topics/${C}/?token=${t.key}`, { method: 'POST', body: 'x' })).status).toBe(400);
    expect((await fetch(`${t.url}/topics//t?token=${t.key}`, { method: 'POST', body: 'x' })).status).toBe(400);
    const long = await t.publish(C, 'x'.repeat(256), 'v');
    expect(long.status).toBe(400);
    expect(long.json.code).toBe('invalid_parameter');
  });

  it('answers 405 with Allow for other methods on a topic, and 404 JSON for unknown routes', async () => {
    const put = await fetch(`${t.url}/topics/${C}/t`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toContain('POST');
    expect(put.headers.get('allow')).toBe('GET, POST, OPTIONS'); // from the document's operations
    expect(await put.json()).toMatchObject({
      code: 'method_not_allowed',
      message: 'PUT is not allowed on /topics/{cacheName}/{topicName}: use POST to publish, GET to subscribe.',
    });
    const unknown = await fetch(`${t.url}/nothing/here?token=secret-value`);
    expect(unknown.status).toBe(404);
    const body = await unknown.json();
    expect(body.code).toBe('route_not_found');
    expect(JSON.stringify(body)).not.toContain('secret-value');
  });

  it('answers 400 JSON for malformed HTTP, and keeps serving', async () => {
    const { connect } = await import('node:net');
    const port = Number(new URL(t.url).port);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GARBAGE\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk: Buffer) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(JSON.parse(raw.split('\r\n\r\n')[1]!)).toMatchObject({ code: 'invalid_request' });
    expect((await t.publish(C, fresh(), 'still fine')).status).toBe(204);
  });
});
