import { describe, expect, it } from 'vitest';
import { TopicsClient, TopicsHttpError } from '../../client/index.js';
import { json, noContent, text } from './fake-server.js';
import { useFakeServer } from './fixture.js';

const ctx = useFakeServer();

const TOKEN = 'tok+en/with=specials';

describe('publish', () => {
  it('sends a string as UTF-8 text/plain and resolves on 204', async () => {
    ctx.server.script(noContent);
    const client = new TopicsClient({ baseUrl: ctx.server.url, token: TOKEN });
    await expect(client.publish('default-cache', 'news', 'héllo ✓')).resolves.toBeUndefined();
    const [request] = ctx.server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/topics/default-cache/news');
    expect(request?.headers['content-type']).toBe('text/plain;charset=utf-8');
    expect(request?.body.equals(Buffer.from('héllo ✓', 'utf8'))).toBe(true);
  });

  it('sends bytes as application/octet-stream, byte for byte, even from a view into a larger buffer', async () => {
    ctx.server.script(noContent, noContent);
    const client = new TopicsClient({ baseUrl: ctx.server.url, token: TOKEN });
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    await client.publish('c', 't', all);
    const backing = new Uint8Array([9, 9, 1, 2, 3, 9]);
    await client.publish('c', 't', backing.subarray(2, 5));
    expect(ctx.server.requests[0]?.headers['content-type']).toBe('application/octet-stream');
    expect([...(ctx.server.requests[0]?.body ?? [])]).toEqual([...all]);
    expect([...(ctx.server.requests[1]?.body ?? [])]).toEqual([1, 2, 3]);
  });

  it('lets the caller choose the content type', async () => {
    ctx.server.script(noContent);
    const client = new TopicsClient({ baseUrl: ctx.server.url, token: TOKEN });
    await client.publish('c', 't', '{"a":1}', { contentType: 'application/json' });
    expect(ctx.server.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('puts the raw token in Authorization by default, and nowhere else', async () => {
    ctx.server.script(noContent);
    await new TopicsClient({ baseUrl: ctx.server.url, token: TOKEN }).publish('c', 't', 'x');
    expect(ctx.server.requests[0]?.headers['authorization']).toBe(TOKEN);
    expect(ctx.server.requests[0]?.url).not.toContain('token');
  });

  it("puts the token in ?token= (encoded) and no Authorization header with tokenIn: 'query'", async () => {
    ctx.server.script(noContent);
    await new TopicsClient({ baseUrl: ctx.server.url, token: TOKEN, tokenIn: 'query' }).publish('c', 't', 'x');
    expect(ctx.server.requests[0]?.headers['authorization']).toBeUndefined();
    expect(ctx.server.query(0)).toEqual({ token: TOKEN });
    expect(ctx.server.requests[0]?.url).toBe(`/topics/c/t?token=${encodeURIComponent(TOKEN)}`);
  });

  it('encodes cache and topic as single path segments', async () => {
    ctx.server.script(noContent);
    await new TopicsClient({ baseUrl: `${ctx.server.url}/`, token: TOKEN }).publish('a b/c', 'ü?#%', 'x');
    expect(ctx.server.requests[0]?.url).toBe('/topics/a%20b%2Fc/%C3%BC%3F%23%25');
  });

  it('keeps a base URL path prefix', async () => {
    ctx.server.script(noContent);
    await new TopicsClient({ baseUrl: `${ctx.server.url}/prefix/`, token: TOKEN }).publish('c', 't', 'x');
    expect(ctx.server.requests[0]?.url).toBe('/prefix/topics/c/t');
  });

  it('sends User-Agent only when asked to', async () => {
    ctx.server.script(noContent, noContent);
    await new TopicsClient({ baseUrl: ctx.server.url, token: TOKEN, userAgent: 'my-app/1.0' }).publish('c', 't', 'x');
    await new TopicsClient({ baseUrl: ctx.server.url, token: TOKEN }).publish('c', 't', 'x');
    expect(ctx.server.requests[0]?.headers['user-agent']).toBe('my-app/1.0');
    expect(ctx.server.requests[1]?.headers['user-agent']).not.toBe('my-app/1.0');
  });

  it('uses the injected fetch, called as a plain function', async () => {
    const calls: Array<{ url: string; self: unknown }> = [];
    const fakeFetch = function (this: unknown, input: string | URL | Request): Promise<Response> {
      calls.push({ url: input instanceof Request ? input.url : input.toString(), self: this });
      return Promise.resolve(new Response(null, { status: 204 }));
    } as typeof fetch;
    await new TopicsClient({ baseUrl: 'https://example.invalid', token: TOKEN, fetch: fakeFetch }).publish(
      'c',
      't',
      'x',
    );
    expect(calls).toEqual([{ url: 'https://example.invalid/topics/c/t', self: undefined }]);
  });

  it('throws TopicsHttpError with the code and message of a JSON error body', async () => {
    ctx.server.script(json(404, { code: 'cache_not_found', message: 'Cache "nope" does not exist.' }));
    const error = await new TopicsClient({ baseUrl: ctx.server.url, token: TOKEN })
      .publish('nope', 't', 'x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TopicsHttpError);
    expect(error).toMatchObject({
      status: 404,
      code: 'cache_not_found',
      message: 'Cache "nope" does not exist.',
      retryAfterSeconds: undefined,
    });
  });

  it('tolerates a non-JSON error body and keeps it', async () => {
    ctx.server.script(text(502, '<html>bad gateway</html>'));
    const error = await new TopicsClient({ baseUrl: ctx.server.url, token: TOKEN })
      .publish('c', 't', 'x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TopicsHttpError);
    expect(error).toMatchObject({ status: 502, code: undefined, body: '<html>bad gateway</html>' });
    expect((error as TopicsHttpError).message).toMatch(/^HTTP 502/);
  });

  it('does not retry a 429, and reports its Retry-After', async () => {
    ctx.server.script(json(429, { code: 'limit_exceeded', message: 'slow down' }, { 'retry-after': '3' }));
    const error = await new TopicsClient({ baseUrl: ctx.server.url, token: TOKEN })
      .publish('c', 't', 'x')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: 'limit_exceeded', retryAfterSeconds: 3 });
    expect(ctx.server.requests).toHaveLength(1);
  });

  it('never puts the token into an error', async () => {
    ctx.server.script(json(401, { code: 'invalid_token', message: 'The token is invalid.' }));
    const error = await new TopicsClient({ baseUrl: ctx.server.url, token: TOKEN, tokenIn: 'query' })
      .publish('c', 't', 'x')
      .catch((e: unknown) => e);
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain(encodeURIComponent(TOKEN));
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain(TOKEN);
  });

  it('rejects with the abort reason when aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      new TopicsClient({ baseUrl: ctx.server.url, token: TOKEN }).publish('c', 't', 'x', { signal: controller.signal }),
    ).rejects.toThrow('stop');
    expect(ctx.server.requests).toHaveLength(0);
  });
});

describe('TopicsClient options', () => {
  it.each([
    [{ baseUrl: 'not a url', token: 't' }, /baseUrl/],
    [{ baseUrl: 'ftp://x', token: 't' }, /http/],
    [{ baseUrl: 'http://x?a=1', token: 't' }, /query/],
    [{ baseUrl: 'http://x', token: '' }, /token/],
  ])('refuses %j', (options, message) => {
    expect(() => new TopicsClient(options)).toThrow(message);
  });
});
