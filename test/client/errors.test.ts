import { describe, expect, it } from 'vitest';
import { httpErrorFrom, parseRetryAfter, TopicsHttpError } from '../../client/errors.js';

const NOW = Date.parse('2025-01-01T00:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    [null, undefined],
    ['0', 0],
    [' 7 ', 7],
    ['Wed, 01 Jan 2025 00:00:10 GMT', 10],
    ['Wed, 01 Jan 2025 00:00:09 GMT', 9],
    ['Tue, 31 Dec 2024 23:59:00 GMT', 0],
    ['-1', undefined],
    ['1.5', undefined],
    ['soon', undefined],
  ])('%j -> %j', (header, seconds) => {
    expect(parseRetryAfter(header, NOW)).toBe(seconds);
  });
});

describe('httpErrorFrom', () => {
  it('reads code, message, Retry-After and the raw body', async () => {
    const body = '{"code":"limit_exceeded","message":"Too many requests.","extra":1}';
    const error = await httpErrorFrom(new Response(body, { status: 429, headers: { 'retry-after': '2' } }));
    expect(error).toBeInstanceOf(TopicsHttpError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('TopicsHttpError');
    expect(error).toMatchObject({
      status: 429,
      code: 'limit_exceeded',
      message: 'Too many requests.',
      retryAfterSeconds: 2,
      body,
    });
  });

  it("takes a message without a code (the shape of the provider's other APIs)", async () => {
    const error = await httpErrorFrom(new Response('{"message":"Request rate exceeded."}', { status: 429 }));
    expect(error).toMatchObject({ status: 429, code: undefined, message: 'Request rate exceeded.' });
  });

  it.each(['', 'not json', '[1,2]', '"a string"', 'null', '{"code":5,"message":[]}'])(
    'falls back to the status for the body %j',
    async (body) => {
      const error = await httpErrorFrom(new Response(body, { status: 500, statusText: 'Internal Server Error' }));
      expect(error).toMatchObject({ status: 500, code: undefined, message: 'HTTP 500 Internal Server Error', body });
    },
  );

  it('turns an HTTP-date Retry-After into seconds from now', async () => {
    const headers = { 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' };
    const error = await httpErrorFrom(new Response('', { status: 503, headers }), () => NOW);
    expect(error.retryAfterSeconds).toBe(5);
  });
});
