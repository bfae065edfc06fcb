// The cache HTTP API beside the topics (public-dev-docs, "HTTP API reference for Momento Cache":
// Get Value, Set Value, Delete Value on /cache/{cacheName}), in the cache the run was given, with
// keys of its own (`conformance-key-<run>-…`, deleted after). A token without cache access makes
// these rules skip, naming the 403, rather than fail: the suite keeps within what it was given.
import type { Exchange } from '../exchange.js';
import { header } from '../exchange.js';
import { textBytes } from '../target.js';
import type { ActiveRule, RuleContext } from './types.js';

const REFERENCE = 'public-dev-docs "HTTP API reference for Momento Cache"';
const TTL_SECONDS = 300;

const bytesOf = (exchange: Exchange) => exchange.responseBody ?? new Uint8Array();
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);
const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** Sets an item, or skips the rule when the token may not (403) or the endpoint serves no cache API (404 route). */
async function set(ctx: RuleContext, item: { key?: string; keyBase64?: string }, value: Uint8Array): Promise<Exchange> {
  const put = await ctx.target.cacheCall(ctx.rule.id, 'PUT', { ...item, ttlSeconds: TTL_SECONDS, body: value });
  if (put.status === 403) ctx.skip('the token has no write access to the cache (403): give --token one that has');
  const code = (put.json as { code?: string } | undefined)?.code;
  if (put.status === 404 && code === 'route_not_found') ctx.skip('the endpoint serves no cache HTTP API');
  ctx.expect(put.status === 204, `a Set Value answered ${put.status ?? put.error}`, [put]);
  return put;
}

/** Deletes what a rule set, whatever happened (best effort; not checked). */
async function cleanUp(ctx: RuleContext, item: { key?: string; keyBase64?: string }): Promise<void> {
  await ctx.target.cacheCall(ctx.rule.id, 'DELETE', item);
}

export const cacheRules: ActiveRule[] = [
  {
    id: 'cache.set-get',
    kind: 'active',
    level: 'documented',
    title: 'Set Value answers 204; Get Value answers 200 with the exact bytes as octet-stream',
    source: `${REFERENCE}: Set Value "Ok: Status Code: 204 No Content"; Get Value "Hit: Status Code: 200 OK", "Content-Type: octet-stream", "Body: The binary value stored at the specified key."`,
    async run(ctx) {
      const key = ctx.target.newKey(ctx.rule.id);
      const value = new Uint8Array([0, 1, 2, 0x7b, 0xc3, 0xa9, 253, 254, 255]);
      try {
        await set(ctx, { key }, value);
        const got = await ctx.target.cacheCall(ctx.rule.id, 'GET', { key });
        if (
          !ctx.expect(got.status === 200, `a Get Value of the item just set answered ${got.status ?? got.error}`, [got])
        )
          return;
        ctx.expect(
          (header(got, 'content-type') ?? '').includes('octet-stream'),
          `a hit's Content-Type is ${header(got, 'content-type')}`,
          [got],
        );
        ctx.expect(sameBytes(bytesOf(got), value), 'a hit does not answer the bytes that were set', [got]);
      } finally {
        await cleanUp(ctx, { key });
      }
    },
  },
  {
    id: 'cache.key-base64',
    kind: 'active',
    level: 'documented',
    title: 'key_base64 names a binary key (base64url); a text key set with key is the same item',
    source: `${REFERENCE}: "This may be either the key query parameter, which allows a URL-safe string, or the key_base64 parameter, which allows a Base64 URL-encoded key."`,
    async run(ctx) {
      const binary = new Uint8Array([0xff, 0x00, 0xfe, ...textBytes(ctx.target.newKey(ctx.rule.id))]);
      const text = ctx.target.newKey(`${ctx.rule.id}-text`);
      try {
        await set(ctx, { keyBase64: base64url(binary) }, textBytes('binary key'));
        const got = await ctx.target.cacheCall(ctx.rule.id, 'GET', { keyBase64: base64url(binary) });
        ctx.expect(got.status === 200, `a Get Value by key_base64 answered ${got.status ?? got.error}`, [got]);
        await set(ctx, { key: text }, textBytes('text key'));
        const same = await ctx.target.cacheCall(ctx.rule.id, 'GET', { keyBase64: base64url(textBytes(text)) });
        ctx.expect(
          same.status === 200 && sameBytes(bytesOf(same), textBytes('text key')),
          `the text key read by key_base64 answered ${same.status ?? same.error}`,
          [same],
        );
      } finally {
        await cleanUp(ctx, { keyBase64: base64url(binary) });
        await cleanUp(ctx, { key: text });
      }
    },
  },
  {
    id: 'cache.miss-404',
    kind: 'active',
    level: 'documented',
    title: 'Get Value of a key that is not there answers 404 "Key Not Found"',
    source: `${REFERENCE}: Get Value "Miss: Status Code: 404 Not Found", '"Key Not Found" indicates that the key was not present in the cache'`,
    async run(ctx) {
      const got = await ctx.target.cacheCall(ctx.rule.id, 'GET', { key: ctx.target.newKey(ctx.rule.id) });
      if (got.status === 403) ctx.skip('the token has no read access to the cache (403)');
      ctx.expect(got.status === 404, `a Get Value of a key never set answered ${got.status ?? got.error}`, [got]);
      ctx.expect(
        Buffer.from(bytesOf(got)).toString('utf8').includes('Key Not Found'),
        'the 404 does not say "Key Not Found"',
        [got],
      );
    },
  },
  {
    id: 'cache.delete',
    kind: 'active',
    level: 'documented',
    title: 'Delete Value answers 204, and the item is gone',
    source: `${REFERENCE}: Delete Value "Ok: Status Code: 204 No Content"; Get Value "Miss: Status Code: 404 Not Found"`,
    async run(ctx) {
      const key = ctx.target.newKey(ctx.rule.id);
      await set(ctx, { key }, textBytes('to be deleted'));
      const deleted = await ctx.target.cacheCall(ctx.rule.id, 'DELETE', { key });
      ctx.expect(deleted.status === 204, `a Delete Value answered ${deleted.status ?? deleted.error}`, [deleted]);
      const got = await ctx.target.cacheCall(ctx.rule.id, 'GET', { key });
      ctx.expect(got.status === 404, `a Get Value after the delete answered ${got.status ?? got.error}`, [got]);
    },
  },
  {
    id: 'cache.delete-absent',
    kind: 'active',
    level: 'observed',
    title: 'Delete Value of a key that is not there answers 204',
    source: "the provider's HTTP API integration cases: DELETE of an absent key is 204; OpenAPI x-emulator-cache",
    async run(ctx) {
      const deleted = await ctx.target.cacheCall(ctx.rule.id, 'DELETE', { key: ctx.target.newKey(ctx.rule.id) });
      if (deleted.status === 403) ctx.skip('the token has no write access to the cache (403)');
      ctx.expect(
        deleted.status === 204,
        `a Delete Value of a key never set answered ${deleted.status ?? deleted.error}`,
        [deleted],
      );
    },
  },
  {
    id: 'cache.ttl-required',
    kind: 'active',
    level: 'documented',
    title: 'Set Value without ttl_seconds, or with a key named neither way, answers 400',
    source: `${REFERENCE}: Set Value "ttl_seconds | yes"; "You must specify a key to be accessed in the cache"; "Status Code: 400 Bad Request - ... the request was incorrectly specified"`,
    async run(ctx) {
      const key = ctx.target.newKey(ctx.rule.id);
      try {
        const noTtl = await ctx.target.cacheCall(ctx.rule.id, 'PUT', { key, body: textBytes('no ttl') });
        if (noTtl.status === 403) ctx.skip('the token has no write access to the cache (403)');
        ctx.expect(noTtl.status === 400, `a Set Value without ttl_seconds answered ${noTtl.status ?? noTtl.error}`, [
          noTtl,
        ]);
        const noKey = await ctx.target.cacheCall(ctx.rule.id, 'PUT', {
          ttlSeconds: TTL_SECONDS,
          body: textBytes('no key'),
        });
        ctx.expect(noKey.status === 400, `a Set Value without a key answered ${noKey.status ?? noKey.error}`, [noKey]);
      } finally {
        await cleanUp(ctx, { key });
      }
    },
  },
  {
    id: 'cache.unknown-cache-404',
    kind: 'active',
    level: 'documented',
    title: 'Get, Set and Delete Value on a cache that does not exist answer 404 "Cache Not Found"',
    source: `${REFERENCE}: '"Cache Not Found" indicates that the specified cache does not exist.' (Get, Set and Delete Value: "Status Code: 404 Not Found")`,
    async run(ctx) {
      const cache = ctx.options.missingCache;
      const key = ctx.target.newKey(ctx.rule.id);
      for (const [method, item] of [
        ['GET', { key, cache }],
        ['PUT', { key, cache, ttlSeconds: TTL_SECONDS, body: textBytes('x') }],
        ['DELETE', { key, cache }],
      ] as const) {
        const answer = await ctx.target.cacheCall(ctx.rule.id, method, item);
        if (answer.status === 403) ctx.skip('the token has no access to that cache name (403), so it cannot tell');
        ctx.expect(
          answer.status === 404 && Buffer.from(bytesOf(answer)).toString('utf8').includes('Cache Not Found'),
          `${method} on cache '${cache}' answered ${answer.status ?? answer.error}${answer.status === 404 ? ' without "Cache Not Found"' : ''}`,
          [answer],
        );
      }
    },
  },
  {
    id: 'cache.token-in-query',
    kind: 'active',
    level: 'documented',
    title: 'The token may go in the token query parameter instead of Authorization',
    source: `${REFERENCE}: "This may be passed either as the token query parameter or as the Authorization header."`,
    async run(ctx) {
      const key = ctx.target.newKey(ctx.rule.id);
      try {
        const put = await ctx.target.cacheCall(
          ctx.rule.id,
          'PUT',
          { key, ttlSeconds: TTL_SECONDS, body: textBytes('query token') },
          { auth: 'query' },
        );
        if (put.status === 403) ctx.skip('the token has no write access to the cache (403)');
        ctx.expect(put.status === 204, `a Set Value with ?token= answered ${put.status ?? put.error}`, [put]);
        const got = await ctx.target.cacheCall(ctx.rule.id, 'GET', { key }, { auth: 'query' });
        ctx.expect(got.status === 200, `a Get Value with ?token= answered ${got.status ?? got.error}`, [got]);
      } finally {
        await cleanUp(ctx, { key });
      }
    },
  },
];
