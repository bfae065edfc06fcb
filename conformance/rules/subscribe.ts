// Subscribe: the long-poll, first requests, resuming from a number, page 0 and stale pages.
// How resumes outside the retained range are answered is left open by the contract: those
// rules are observed. Where a first request starts, and a number ahead of the stream, are
// observations (observations.ts).
import { describeValue, sameValue, type Item, type MessageValue } from '../elements.js';
import { stalePage } from '../stream/subscriber.js';
import { answerOf, firstAnswer, marker, publishOk, readForward, textBytes, textOf } from './helpers.js';
import type { ActiveRule, RuleContext } from './types.js';

async function publishValues(ctx: RuleContext, topic: string, values: MessageValue[]): Promise<boolean> {
  for (const value of values) {
    const exchange =
      value.kind === 'text'
        ? await ctx.target.publishText(ctx.rule.id, topic, value.text)
        : await ctx.target.publish(ctx.rule.id, topic, value.bytes, { contentType: 'application/octet-stream' });
    if (!ctx.expect(exchange.status === 204, `publish answered ${exchange.status ?? exchange.error}`, [exchange]))
      return false;
  }
  return true;
}

export const subscribeRules: ActiveRule[] = [
  {
    id: 'subscribe.success-200',
    kind: 'active',
    level: 'documented',
    title: 'A first request (0, 0) is answered 200 with the message published',
    source:
      '§4.2 "Success is status 200 with a JSON body"; sequence_page "Use 0 on the first request to learn the current page"',
    async run(ctx) {
      const topic = ctx.target.newTopic(ctx.rule.id);
      const answer = await firstAnswer(ctx, topic);
      if (answer) ctx.note(`page ${answer.items[0]!.page}, number ${answer.items[0]!.n}`);
    },
  },
  {
    id: 'subscribe.blocks-until-available',
    kind: 'active',
    level: 'documented',
    title: 'With nothing to deliver, a subscribe waits instead of answering no elements at once',
    source:
      '§4.2 "The request blocks until at least one message or one discontinuity element is available." (how long it blocks is open: see --min-long-poll)',
    async run(ctx) {
      const topic = ctx.target.newTopic(ctx.rule.id);
      const first = await firstAnswer(ctx, topic);
      if (!first) return;
      const min = ctx.options.minLongPollMs;
      const exchange = await ctx.target.subscribe(ctx.rule.id, topic, first.next, { timeoutMs: min + 250 });
      if (exchange.error === 'timeout') {
        ctx.note(`still waiting after ${min + 250} ms`);
        return;
      }
      const answer = answerOf(exchange, first.next);
      if (answer && answer.elements.length > 0) return; // a discontinuity is allowed; repeats are other rules' business
      if (exchange.status !== undefined && exchange.durationMs >= min) {
        ctx.note(
          `answered ${exchange.status} with no elements after ${exchange.durationMs} ms (its long-poll timeout)`,
        );
        return;
      }
      ctx.fail(
        `with nothing published, the subscribe answered ${exchange.status ?? exchange.error} with no elements after ${exchange.durationMs} ms (< ${min} ms)`,
        [exchange],
      );
    },
  },
  {
    id: 'subscribe.wakes-on-publish',
    kind: 'active',
    level: 'documented',
    title: 'A waiting subscribe is answered with the message published meanwhile',
    source:
      '§1 "A client receives messages with a GET request that blocks until at least one message ... is available."',
    async run(ctx) {
      const topic = ctx.target.newTopic(ctx.rule.id);
      const first = await firstAnswer(ctx, topic);
      if (!first) return;
      const poll = ctx.target.subscribe(ctx.rule.id, topic, first.next);
      const text = marker(ctx, 'wake-up');
      const publish = await publishOk(ctx, topic, text);
      const exchange = await poll;
      const answer = answerOf(exchange, first.next);
      const got = answer?.items[0]
        ? describeValue(answer.items[0].value)
        : `${exchange.status ?? exchange.error} without items`;
      ctx.expect(
        answer?.items[0] !== undefined && textOf(answer.items[0]) === text,
        `the waiting subscribe got ${got}`,
        [publish, exchange],
      );
    },
  },
  {
    id: 'resume.from-earlier-number',
    kind: 'active',
    level: 'documented',
    title: 'Reading forward from an earlier number delivers each later message once, in order, byte for byte',
    source:
      '§1 "Every message received carries a sequence number and a sequence page, so that a client can resume where it stopped"; §4.2 "The client advances by setting sequence_number to the last received topic_sequence_number + 1"',
    async run(ctx) {
      const topic = ctx.target.newTopic(ctx.rule.id);
      const first = await firstAnswer(ctx, topic);
      if (!first) return;
      const values: MessageValue[] = [
        { kind: 'text', text: 'one' },
        { kind: 'binary', bytes: new Uint8Array([0, 0xff, 0x10, 0x80]) },
        { kind: 'text', text: 'três 🎉 \u0000 \u202e end' },
        { kind: 'binary', bytes: textBytes('not text') },
        { kind: 'text', text: 'five' },
      ];
      if (!(await publishValues(ctx, topic, values))) return;
      for (const skip of [0, 2]) {
        const from = { n: first.next.n + skip, page: first.next.page };
        const final = values[values.length - 1]!;
        const { items, answers } = await readForward(ctx, topic, from, values.length - skip, 20, (item) =>
          sameValue(final, item.value),
        );
        const exchanges = answers.map((a) => a.exchange);
        // A discontinuity (retention is open) excuses what it skipped; what came must match.
        const gapped = answers.some((a) => a.elements.some((e) => e.kind === 'discontinuity'));
        const expected = values.slice(skip);
        const delivered = items.slice(0, expected.length);
        if (!gapped)
          ctx.expect(
            delivered.length === expected.length,
            `reading from number ${from.n} gave ${delivered.length} of ${expected.length} messages`,
            exchanges,
          );
        const offset = expected.length - delivered.length;
        delivered.forEach((item, i) => {
          const want = expected[i + (gapped ? offset : 0)]!;
          // How binary is represented is not documented: an unreadable one is value.binary-base64's to report.
          if (want.kind === 'binary' && item.value.kind === 'opaque') return;
          ctx.expect(
            sameValue(want, item.value),
            `reading from number ${from.n}, item ${i} is ${describeValue(item.value)}; published ${describeValue(want)}`,
            exchanges,
          );
        });
      }
    },
  },
  {
    id: 'resume.page-zero',
    kind: 'active',
    level: 'documented',
    title: 'Resuming with sequence_page 0 ("when unsure") answers from the current page',
    source: '§4.2 sequence_page "When unsure, send 0 and the service returns the correct value."',
    async run(ctx) {
      const topic = ctx.target.newTopic(ctx.rule.id);
      const first = await firstAnswer(ctx, topic);
      if (!first) return;
      await publishOk(ctx, topic, marker(ctx, 'page-zero'));
      const cursor = { n: first.next.n, page: 0 };
      const exchange = await ctx.target.subscribe(ctx.rule.id, topic, cursor);
      const answer = answerOf(exchange, cursor);
      const item = answer?.items[0];
      if (
        !ctx.expect(
          item !== undefined,
          `resuming with page 0 answered ${exchange.status ?? exchange.error} without items`,
          [exchange],
        )
      )
        return;
      ctx.expect(
        item!.page === first.next.page,
        `resuming with page 0 answered page ${item!.page}; the current page is ${first.next.page}`,
        [exchange],
      );
    },
  },
  {
    id: 'resume.stale-page-discontinuity',
    kind: 'active',
    level: 'documented',
    title: 'Resuming with a page the topic does not have answers a discontinuity before any item',
    source:
      '§2 sequence_page "the same sequence number can then exist on two pages"; §4.2 "When the sequence is not contiguous (for example the page changed), a discontinuity element precedes the next item."',
    async run(ctx) {
      const topic = ctx.target.newTopic(ctx.rule.id);
      const first = await firstAnswer(ctx, topic);
      if (!first) return;
      await publishOk(ctx, topic, marker(ctx, 'stale-1'));
      await publishOk(ctx, topic, marker(ctx, 'stale-2'));
      const cursor = { n: first.next.n, page: stalePage(first.next.page) };
      const exchange = await ctx.target.subscribe(ctx.rule.id, topic, cursor, { timeoutMs: 2000 });
      if (exchange.error === 'timeout') {
        ctx.note('no answer within 2 s (the stale page was not answered at once)');
        return;
      }
      const answer = answerOf(exchange, cursor);
      if (
        !ctx.expect(answer !== undefined, `resuming with a stale page answered ${exchange.status ?? exchange.error}`, [
          exchange,
        ])
      )
        return;
      const firstItem = answer!.elements.findIndex((e) => e.kind === 'item');
      const firstGap = answer!.elements.findIndex((e) => e.kind === 'discontinuity');
      if (firstItem >= 0) {
        ctx.expect(
          firstGap >= 0 && firstGap < firstItem,
          `asked for page ${cursor.page}, which the topic never had: items came with no discontinuity before them`,
          [exchange],
        );
      }
    },
  },
  {
    id: 'subscribe.numbering-starts-at-1',
    kind: 'active',
    level: 'observed',
    title: 'The first message on a new topic has number 1',
    source: 'service-facts "Subscribe": "Sequence numbers start at **1** on a new topic"; OpenAPI x-emulator-numbering',
    async run(ctx) {
      const topic = ctx.target.newTopic(ctx.rule.id);
      const first = await firstAnswer(ctx, topic);
      if (!first) return;
      // The first request may have arrived after the first publish (it waits for the next), so
      // the topic is read from its start on the page it answered: the first publish's number.
      const text = marker(ctx, `warm-up-${topic}-1`);
      const isFirst = (item: Item) => textOf(item) === text;
      const read = first.items.some(isFirst)
        ? { items: first.items, answers: [first] }
        : await readForward(ctx, topic, { n: 1, page: first.next.page }, Number.POSITIVE_INFINITY, 20, isFirst);
      const warmUp = read.items.find(isFirst);
      ctx.expect(
        warmUp?.n === 1,
        `the first message on a new topic has number ${warmUp?.n ?? '(not delivered)'}`,
        read.answers.map((a) => a.exchange),
      );
    },
  },
  {
    id: 'subscribe.stale-page-answer',
    kind: 'active',
    level: 'observed',
    title: "A stale page answers a discontinuity (last = requested - 1), then the current page's messages",
    source:
      'service-facts "Subscribe": "Unknown or stale page (for example seq 300, page 5435435): the service answers with a discontinuity and then the messages it has on the current page"; OpenAPI x-emulator-page-change',
    async run(ctx) {
      const topic = ctx.target.newTopic(ctx.rule.id);
      const first = await firstAnswer(ctx, topic);
      if (!first) return;
      const cursor = { n: 300, page: 5435435 === first.next.page ? 5435436 : 5435435 };
      const exchange = await ctx.target.subscribe(ctx.rule.id, topic, cursor, { timeoutMs: ctx.target.pace.atOnceMs });
      const answer = answerOf(exchange, cursor);
      const [head, next] = answer?.elements ?? [];
      if (
        !ctx.expect(
          head?.kind === 'discontinuity',
          `seq 300 on a stale page answered ${exchange.status ?? exchange.error} starting with ${head?.kind ?? 'nothing'}`,
          [exchange],
        )
      )
        return;
      if (head?.kind !== 'discontinuity') return;
      ctx.expect(
        head.page === first.next.page,
        `the discontinuity names page ${head.page}; the current page is ${first.next.page}`,
        [exchange],
      );
      ctx.expect(head.last === 299, `last_topic_sequence is ${head.last}, not 299 (requested - 1)`, [exchange]);
      ctx.expect(
        next?.kind === 'item' && next.page === first.next.page,
        `the discontinuity is not followed by the current page's messages`,
        [exchange],
      );
    },
  },
  {
    id: 'subscribe.binary-representation',
    kind: 'active',
    level: 'observed',
    title: 'All 256 byte values come back as value.binary, standard base64',
    source:
      'OpenAPI x-emulator-binary-values; service-facts "Binary values: not documented for HTTP ... Base64 is the natural JSON encoding (inference)"',
    async run(ctx) {
      const topic = ctx.target.newTopic(ctx.rule.id);
      const first = await firstAnswer(ctx, topic);
      if (!first) return;
      const bytes = new Uint8Array(256).map((_, i) => i);
      const publish = await ctx.target.publish(ctx.rule.id, topic, bytes, { contentType: 'application/octet-stream' });
      if (!ctx.expect(publish.status === 204, `binary publish answered ${publish.status ?? publish.error}`, [publish]))
        return;
      const { answers } = await readForward(ctx, topic, first.next, 1, 3);
      const raw = (
        answers[0]?.exchange.json as { items?: Array<{ item?: { value?: Record<string, unknown> } }> } | undefined
      )?.items?.[0]?.item?.value;
      ctx.expect(
        raw?.binary === Buffer.from(bytes).toString('base64'),
        `256 bytes came back as ${JSON.stringify(raw ?? null).slice(0, 80)}`,
        answers.map((a) => a.exchange),
      );
    },
  },
];
