// Control-level rules: the contract's stream properties under conditions only the
// emulator's control plane can create on demand: page changes, 429s, token
// expiry, resets. Each skips with the reason when its endpoint is missing.
import { describeValue } from '../elements.js';
import type { Exchange } from '../exchange.js';
import { answerOf, firstAnswer, marker, publishOk, readForward, textOf, type Answer } from './helpers.js';
import type { ActiveRule, RuleContext } from './types.js';

function control(ctx: RuleContext) {
  if (!ctx.control) return ctx.skip('no emulator control plane');
  return ctx.control;
}

/** Reads until the item with `text` arrives (bounded); says whether a discontinuity came before it. */
async function readUntil(ctx: RuleContext, topic: string, from: Answer['next'], text: string) {
  const { answers, items } = await readForward(ctx, topic, from, 1, 6);
  const exchanges = answers.map((a) => a.exchange);
  const elements = answers.flatMap((a) => a.elements);
  const at = elements.findIndex((e) => e.kind === 'item' && textOf(e) === text);
  const gapBefore = elements.slice(0, Math.max(at, 0)).some((e) => e.kind === 'discontinuity');
  return { exchanges, items, found: at >= 0, gapBefore, item: at >= 0 ? elements[at] : undefined };
}

/** The control plane, a new topic, and a subscriber's first answer on it (undefined when that failed). */
async function start(ctx: RuleContext) {
  const plane = control(ctx);
  const topic = ctx.target.newTopic(ctx.rule.id);
  const first = await firstAnswer(ctx, topic);
  return first ? { plane, topic, first } : undefined;
}

/** A subscriber has a cursor; the topic resets; a message is published; the subscriber resumes from its old cursor. */
async function resumeAfterReset(ctx: RuleContext) {
  const started = await start(ctx);
  if (!started) return undefined;
  const { plane, topic, first } = started;
  await plane.resetTopic(ctx.rule.id, ctx.target.cache, topic);
  const text = marker(ctx, 'after-reset');
  await publishOk(ctx, topic, text);
  const read = await readUntil(ctx, topic, first.next, text);
  return { before: first.next, read, item: read.item?.kind === 'item' ? read.item : undefined };
}

export const controlRules: ActiveRule[] = [
  {
    id: 'control.page-change-mid-stream',
    kind: 'active',
    level: 'control',
    needs: ['control'],
    title: 'Stream properties hold when the topic resets (new page) at any point of a stream',
    source:
      '§2 sequence_page "A topic can be evicted from memory or recreated after maintenance"; §4.2 "When the sequence is not contiguous (for example the page changed), a discontinuity element precedes the next item."',
    run() {
      // Run by the stream driver with reset steps; see run.ts.
      return Promise.resolve();
    },
  },
  {
    id: 'control.resume-across-page-change',
    kind: 'active',
    level: 'control',
    needs: ['control'],
    title: 'Resuming with the old page after a reset: a discontinuity naming the new page, then the new messages',
    source:
      '§4.2 "When the sequence is not contiguous (for example the page changed), a discontinuity element precedes the next item."; discontinuity "new_sequence_page: Page that applies from then on."',
    async run(ctx) {
      const after = await resumeAfterReset(ctx);
      if (!after) return;
      const { before, read, item } = after;
      if (
        !ctx.expect(
          read.found,
          'after a reset, resuming with the old cursor never delivered the new message',
          read.exchanges,
        )
      )
        return;
      ctx.expect(
        read.gapBefore,
        "after a reset, the new page's message came with no discontinuity before it",
        read.exchanges,
      );
      ctx.expect(
        item?.page !== before.page,
        `the message after the reset is on the old page ${before.page}`,
        read.exchanges,
      );
      if (item) ctx.note(`page ${before.page} -> ${item.page}`);
    },
  },
  {
    id: 'control.page-increases',
    kind: 'active',
    level: 'observed',
    needs: ['control'],
    title: 'A reset gives a greater page, and numbering restarts at 1',
    source:
      'service-facts "Subscribe": "a topic reset (eviction, maintenance) restarts the numbers and gives a new page; later pages are *greater* than earlier ones"',
    async run(ctx) {
      const after = await resumeAfterReset(ctx);
      if (!after) return;
      const { before, read, item } = after;
      ctx.expect(
        item !== undefined && item.page > before.page,
        `the page went from ${before.page} to ${item?.page ?? '(none)'}`,
        read.exchanges,
      );
      ctx.expect(item?.n === 1, `the first message after a reset has number ${item?.n ?? '(none)'}`, read.exchanges);
    },
  },
  {
    id: 'control.reset-during-wait',
    kind: 'active',
    level: 'control',
    needs: ['control'],
    title: 'A subscriber waiting when the topic resets still receives what is published next, after a discontinuity',
    source:
      '§4.2 "The request blocks until at least one message or one discontinuity element is available."; "a discontinuity element precedes the next item"',
    async run(ctx) {
      const started = await start(ctx);
      if (!started) return;
      const { plane, topic, first } = started;
      const waiting = ctx.target.subscribe(ctx.rule.id, topic, first.next);
      await plane.resetTopic(ctx.rule.id, ctx.target.cache, topic);
      const text = marker(ctx, 'after-reset');
      await publishOk(ctx, topic, text);
      const exchange = await waiting;
      const answer = answerOf(exchange, first.next);
      if (
        !ctx.expect(answer !== undefined, `the waiting subscribe answered ${exchange.status ?? exchange.error}`, [
          exchange,
        ])
      )
        return;
      const read = answer!.items.some((i) => textOf(i) === text)
        ? {
            found: true,
            gapBefore: answer!.elements.findIndex((e) => e.kind === 'discontinuity') === 0,
            exchanges: [exchange],
          }
        : await readUntil(ctx, topic, answer!.next, text).then((r) => ({
            ...r,
            gapBefore: r.gapBefore || answer!.elements.some((e) => e.kind === 'discontinuity'),
            exchanges: [exchange, ...r.exchanges],
          }));
      if (!ctx.expect(read.found, 'the message published after the reset never reached the subscriber', read.exchanges))
        return;
      ctx.expect(read.gapBefore, "the new page's message came with no discontinuity before it", read.exchanges);
    },
  },
  {
    id: 'control.retry-after-429',
    kind: 'active',
    level: 'control',
    needs: ['control'],
    title: 'A 429 carries Retry-After; after waiting, publish and subscribe go on and nothing is lost or repeated',
    source: '§7 "429: Account limits were exceeded."; §8 "A 429 response signals that account limits were exceeded."',
    async run(ctx) {
      const started = await start(ctx);
      if (!started) return;
      const { plane, topic, first } = started;
      const cache = ctx.target.cache;
      await plane.addFault(ctx.rule.id, {
        operation: 'publish',
        cache,
        topic,
        status: 429,
        retryAfterSeconds: 1,
        count: 1,
      });
      const text = marker(ctx, 'after-429');
      const refused = await ctx.target.publishText(ctx.rule.id, topic, text, { raw429: true });
      if (
        !ctx.expect(refused.status === 429, `the injected publish fault answered ${refused.status ?? refused.error}`, [
          refused,
        ])
      )
        return;
      ctx.expect(
        /^\d+$/.test(refused.responseHeaders?.['retry-after'] ?? ''),
        'the 429 has no Retry-After in seconds',
        [refused],
      );
      // The sender waits Retry-After and retries: the client's view is one publish.
      await plane.addFault(ctx.rule.id, {
        operation: 'subscribe',
        cache,
        topic,
        status: 429,
        retryAfterSeconds: 1,
        count: 1,
      });
      const published = await ctx.target.publishText(ctx.rule.id, topic, text);
      ctx.expect(published.status === 204, `publishing after the 429 answered ${published.status ?? published.error}`, [
        published,
      ]);
      const { items, answers } = await readForward(ctx, topic, first.next, 1, 4);
      const exchanges: Exchange[] = [refused, published, ...answers.map((a) => a.exchange)];
      const copies = items.filter((i) => textOf(i) === text).length;
      ctx.expect(
        copies === 1,
        `after a 429 on publish and one on subscribe, the message arrived ${copies} time(s): ${items.map((i) => describeValue(i.value)).join(', ')}`,
        exchanges,
      );
      const waitedOut = ctx.target.sender.exchanges.some(
        (e) => e.rule === ctx.rule.id && e.operation === 'subscribe' && e.status === 429 && e.retried,
      );
      ctx.expect(waitedOut, 'the injected subscribe fault was never answered (no 429 to wait out)', exchanges);
    },
  },
  {
    id: 'control.token-expiry-between-polls',
    kind: 'active',
    level: 'control',
    needs: ['control'],
    title: 'A token that expires between two polls gets 401; resuming with a valid token loses nothing',
    source:
      '§5 "A token can expire"; "An invalid or expired token gives 401."; §4.2 "The client advances by setting sequence_number to the last received topic_sequence_number + 1"',
    async run(ctx) {
      const started = await start(ctx);
      if (!started) return;
      const { plane, topic, first } = started;
      const token = await plane.issueToken(
        ctx.rule.id,
        [{ role: 'publishsubscribe', cache: ctx.target.cache, topic: '*' }],
        60,
      );
      // Re-reading the last message answers at once: the token works before the clock moves.
      const last = first.items[first.items.length - 1]!;
      const before = await ctx.target.subscribe(ctx.rule.id, topic, { n: last.n, page: last.page }, { token });
      ctx.expect(before.status === 200, `the fresh token's poll answered ${before.status ?? before.error}`, [before]);
      await plane.advanceClock(ctx.rule.id, 61_000);
      const text = marker(ctx, 'after-expiry');
      await publishOk(ctx, topic, text);
      const expired = await ctx.target.subscribe(ctx.rule.id, topic, first.next, { token, timeoutMs: 3000 });
      ctx.expect(
        expired.status === 401,
        `the poll after the token expired answered ${expired.status ?? expired.error}`,
        [expired],
      );
      const read = await readUntil(ctx, topic, first.next, text);
      ctx.expect(
        read.found,
        'resuming with a valid token after the 401 did not deliver the message published meanwhile',
        [expired, ...read.exchanges],
      );
    },
  },
  {
    id: 'control.global-reset',
    kind: 'active',
    level: 'control',
    needs: ['control'],
    title: "After the emulator's full reset, a client resuming with its old cursor still detects the gap",
    source:
      '§1 "so that a client can resume where it stopped and detect gaps"; §4.2 "a discontinuity element precedes the next item"',
    async run(ctx) {
      if (!ctx.options.allowGlobalReset)
        ctx.skip('POST /_emulator/reset clears every topic of the emulator: pass --allow-global-reset');
      const started = await start(ctx);
      if (!started) return;
      const { plane, topic, first } = started;
      await plane.resetAll(ctx.rule.id);
      const text = marker(ctx, 'after-global-reset');
      await publishOk(ctx, topic, text);
      const read = await readUntil(ctx, topic, first.next, text);
      if (
        !ctx.expect(
          read.found,
          `after a full reset, resuming from (page ${first.next.page}, number ${first.next.n}) never delivered the new message`,
          read.exchanges,
        )
      )
        return;
      ctx.expect(
        read.gapBefore,
        'after a full reset, the new message came with no discontinuity before it',
        read.exchanges,
      );
    },
  },
];
