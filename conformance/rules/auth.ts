// Authentication and the unknown cache, on both operations: where the token may be, what
// happens with none, both, a bad one, an expired one, one without access.
import { randomBytes } from 'node:crypto';
import type { Exchange } from '../exchange.js';
import type { AuthPlacement } from '../target.js';
import { firstAnswer, marker, publishOk } from './helpers.js';
import type { ActiveRule, RuleContext } from './types.js';

interface Attempt {
  auth: AuthPlacement;
  token?: string;
  cache?: string;
}

/** A subscribe that should be refused is bounded: a wrongly accepted one must not hang the run. */
const refusalTimeoutMs = (ctx: RuleContext) => ctx.target.pace.settleMs + 1000;

async function attemptBoth(
  ctx: RuleContext,
  attempt: Attempt,
  options: { publish?: boolean; subscribe?: boolean } = {},
): Promise<Exchange[]> {
  const topic = ctx.target.newTopic(ctx.rule.id);
  // A retained message makes a wrongly accepted subscribe answer at once instead of waiting.
  await publishOk(ctx, topic, marker(ctx, 'auth-probe'));
  const exchanges: Exchange[] = [];
  const common = {
    auth: attempt.auth,
    ...(attempt.token ? { token: attempt.token } : {}),
    ...(attempt.cache ? { cache: attempt.cache } : {}),
  };
  if (options.publish !== false)
    exchanges.push(await ctx.target.publishText(ctx.rule.id, topic, 'conformance auth check', common));
  if (options.subscribe !== false) {
    exchanges.push(
      await ctx.target.subscribe(
        ctx.rule.id,
        topic,
        { n: 0, page: 0 },
        { ...common, timeoutMs: refusalTimeoutMs(ctx) },
      ),
    );
  }
  return exchanges;
}

function expectStatus(ctx: RuleContext, exchanges: Exchange[], status: number, what: string): void {
  for (const exchange of exchanges) {
    const got =
      exchange.status !== undefined
        ? String(exchange.status)
        : `no answer within ${refusalTimeoutMs(ctx)} ms (${exchange.error})`;
    ctx.expect(exchange.status === status, `${exchange.operation} ${what}: expected ${status}, got ${got}`, [exchange]);
  }
}

/** A token or API key that was never issued. */
const inventedToken = (): string => `conformance-invalid-${randomBytes(12).toString('hex')}`;

/** A publish and a first request with the token in one place both succeed. */
async function accepted(ctx: RuleContext, auth: 'header' | 'query'): Promise<void> {
  const topic = ctx.target.newTopic(ctx.rule.id);
  const publish = await ctx.target.publishText(ctx.rule.id, topic, `conformance ${auth} token`, { auth });
  ctx.expect(
    publish.status === 204,
    `publish with the token in the ${auth} answered ${publish.status ?? publish.error}`,
    [publish],
  );
  if (await firstAnswer(ctx, topic, { auth })) ctx.note('publish 204, subscribe 200');
}

export const authRules: ActiveRule[] = [
  {
    id: 'auth.header-accepted',
    kind: 'active',
    level: 'documented',
    title: 'The token in the Authorization header is accepted (raw, no Bearer)',
    source:
      '§5 "The token is sent in exactly one of two places: the `Authorization` header (value is the token string) or the `token` query parameter"',
    run: (ctx) => accepted(ctx, 'header'),
  },
  {
    id: 'auth.query-accepted',
    kind: 'active',
    level: 'documented',
    title: 'The token in the token query parameter is accepted',
    source: '§5 "... or the `token` query parameter (URL-safe string)"',
    run: (ctx) => accepted(ctx, 'query'),
  },
  {
    id: 'auth.both-400',
    kind: 'active',
    level: 'documented',
    title: 'A token in both the header and the query answers 400, on both operations',
    source:
      '§5 "When both are present, the response is 400 stating that only one value may be set."; §7 "the both-places token rule applies to every request"',
    async run(ctx) {
      expectStatus(ctx, await attemptBoth(ctx, { auth: 'both' }), 400, 'with the token in both places');
    },
  },
  {
    id: 'auth.missing-401',
    kind: 'active',
    level: 'documented',
    title: 'No token at all answers 401, on both operations',
    source:
      '§4.1 "When the token is missing from both header and query, the request is not authenticated"; §5 "Every request needs an auth token"',
    async run(ctx) {
      expectStatus(ctx, await attemptBoth(ctx, { auth: 'none' }), 401, 'without a token');
    },
  },
  {
    id: 'auth.invalid-401',
    kind: 'active',
    level: 'documented',
    title: 'An invalid token answers 401, in the header and in the query',
    source: '§5 "An invalid or expired token gives 401."',
    async run(ctx) {
      expectStatus(
        ctx,
        await attemptBoth(ctx, { auth: 'header', token: inventedToken() }),
        401,
        'with an invalid header token',
      );
      expectStatus(
        ctx,
        await attemptBoth(ctx, { auth: 'query', token: inventedToken() }),
        401,
        'with an invalid query token',
      );
    },
  },
  {
    id: 'auth.expired-401',
    kind: 'active',
    level: 'documented',
    title: 'An expired token answers 401, on both operations',
    source: '§5 "A token can expire ..."; "An invalid or expired token gives 401."',
    async run(ctx) {
      let token = ctx.options.expiredToken;
      if (!token) {
        const plane = ctx.control;
        if (!plane) return ctx.skip('no --expired-token given and no emulator control plane to mint one');
        token = await plane.issueToken(ctx.rule.id, [{ role: 'publishsubscribe', cache: '*', topic: '*' }], 60);
        await plane.advanceClock(ctx.rule.id, 61_000);
        ctx.note('token minted through the control plane, clock advanced past its expiry');
      }
      expectStatus(ctx, await attemptBoth(ctx, { auth: 'header', token }), 401, 'with an expired token');
    },
  },
  {
    id: 'auth.restricted-403',
    kind: 'active',
    level: 'documented',
    title: 'A valid token without the needed access answers 403',
    source: '§5 "A token lacking the needed access gives 403."',
    async run(ctx) {
      if (ctx.options.restrictedToken) {
        const [publish] = await attemptBoth(
          ctx,
          { auth: 'header', token: ctx.options.restrictedToken },
          { subscribe: false },
        );
        expectStatus(ctx, [publish!], 403, 'with the restricted token (lacks publish)');
        return;
      }
      const plane = ctx.control;
      if (!plane)
        return ctx.skip(
          'no --restricted-token given (a token lacking publish access) and no emulator control plane to mint one',
        );
      const cache = ctx.target.cache;
      const subscribeOnly = await plane.issueToken(ctx.rule.id, [{ role: 'subscribeonly', cache, topic: '*' }], 3600);
      const publishOnly = await plane.issueToken(ctx.rule.id, [{ role: 'publishonly', cache, topic: '*' }], 3600);
      const [publish] = await attemptBoth(ctx, { auth: 'header', token: subscribeOnly }, { subscribe: false });
      const [subscribe] = await attemptBoth(ctx, { auth: 'header', token: publishOnly }, { publish: false });
      expectStatus(ctx, [publish!], 403, 'with a subscribe-only token');
      expectStatus(ctx, [subscribe!], 403, 'with a publish-only token');
      ctx.note('tokens minted through the control plane');
    },
  },
  {
    id: 'cache.unknown-404',
    kind: 'active',
    level: 'documented',
    title: 'A cache that does not exist answers 404, on both operations',
    source:
      '§4.1 "When the cache does not exist, the response is 404."; §7 "404: The cache does not exist (publish); the cache or the topic does not exist (subscribe)."',
    async run(ctx) {
      expectStatus(
        ctx,
        await attemptBoth(ctx, { auth: 'header', cache: ctx.options.missingCache }),
        404,
        `on cache ${ctx.options.missingCache}`,
      );
    },
  },
  {
    id: 'auth.both-before-validity',
    kind: 'active',
    level: 'observed',
    title: 'Both places are refused with 400 even when the tokens are invalid',
    source: 'OpenAPI x-emulator-auth: "Both present: 400 ... The checks run in that order"',
    async run(ctx) {
      expectStatus(
        ctx,
        await attemptBoth(ctx, { auth: 'both', token: inventedToken() }),
        400,
        'with an invalid token in both places',
      );
    },
  },
  {
    id: 'auth.before-cache',
    kind: 'active',
    level: 'observed',
    title: 'Without a token, an unknown cache answers 401, not 404',
    source:
      'OpenAPI x-emulator-auth: "before the cache is looked up ... so an unauthenticated client never learns which caches exist"',
    async run(ctx) {
      expectStatus(
        ctx,
        await attemptBoth(ctx, { auth: 'none', cache: ctx.options.missingCache }),
        401,
        'without a token on an unknown cache',
      );
    },
  },
];
