// Publish: one message per POST, raw body, text or binary by Content-Type; 204 on success.
// The payload limit and the content types beyond the two documented ones are observed (which
// other types an endpoint accepts is an observation: observations.ts).
import { describeValue } from '../elements.js';
import { firstAnswer, marker, readForward, textBytes } from './helpers.js';
import type { ActiveRule, RuleContext } from './types.js';

/** Publishes `body` after a subscriber has a cursor, and reads back what it receives. */
async function roundTrip(ctx: RuleContext, body: Uint8Array, contentType: string) {
  const topic = ctx.target.newTopic(ctx.rule.id);
  const first = await firstAnswer(ctx, topic);
  if (!first) return undefined;
  const publish = await ctx.target.publish(ctx.rule.id, topic, body, { contentType });
  if (publish.status !== 204) return { publish, item: undefined };
  const { items } = await readForward(ctx, topic, first.next, 1, 3);
  return { publish, item: items[0] };
}

export const publishRules: ActiveRule[] = [
  {
    id: 'publish.success-204',
    kind: 'active',
    level: 'documented',
    title: 'A valid publish (text/plain or application/octet-stream) answers 204',
    source:
      '§4.1 Content-Type "`text/plain` to publish UTF-8 text; `application/octet-stream` to publish binary data"; "Response on success: status 204, empty body"',
    async run(ctx) {
      const topic = ctx.target.newTopic(ctx.rule.id);
      const text = await ctx.target.publishText(ctx.rule.id, topic, 'conformance: héllo, wörld ✓');
      const binary = await ctx.target.publish(ctx.rule.id, topic, new Uint8Array([0, 1, 2, 253, 254, 255]), {
        contentType: 'application/octet-stream',
      });
      ctx.expect(text.status === 204, `text/plain publish answered ${text.status ?? text.error}`, [text]);
      ctx.expect(binary.status === 204, `application/octet-stream publish answered ${binary.status ?? binary.error}`, [
        binary,
      ]);
    },
  },
  {
    id: 'publish.payload-limit',
    kind: 'active',
    level: 'observed',
    title: 'A message of exactly the payload limit is accepted; one byte more is refused with a 4xx',
    source:
      'service-facts "Payload size: hard limit of 4 KB per message"; OpenAPI x-emulator-payload-limit (413 payload_too_large); --payload-limit changes the size',
    async run(ctx) {
      const limit = ctx.options.payloadLimit;
      const topic = ctx.target.newTopic(ctx.rule.id);
      const fits = await ctx.target.publish(ctx.rule.id, topic, new Uint8Array(limit).fill(0x61), {
        contentType: 'application/octet-stream',
      });
      const over = await ctx.target.publish(ctx.rule.id, topic, new Uint8Array(limit + 1).fill(0x61), {
        contentType: 'application/octet-stream',
      });
      ctx.expect(fits.status === 204, `a ${limit}-byte message answered ${fits.status ?? fits.error}`, [fits]);
      ctx.expect(
        over.status !== undefined && over.status >= 400 && over.status < 500,
        `a ${limit + 1}-byte message answered ${over.status ?? over.error}`,
        [over],
      );
      ctx.note(`limit ${limit} bytes; one more answered ${over.status}`);
    },
  },
  {
    id: 'publish.text-content-types',
    kind: 'active',
    level: 'observed',
    title: 'application/json and form bodies are published as text, unparsed',
    source:
      'service-facts "Publish": "text-like content types in practice reach subscribers as `text`"; OpenAPI x-emulator-content-types',
    async run(ctx) {
      for (const [contentType, text] of [
        ['application/json', '{"reaction": "👍", "n": 1}'],
        ['application/x-www-form-urlencoded', 'a=1&b=caf%C3%A9'],
      ] as const) {
        const result = await roundTrip(ctx, textBytes(text), contentType);
        if (!result) return;
        const { publish, item } = result;
        if (
          !ctx.expect(publish.status === 204, `${contentType} publish answered ${publish.status ?? publish.error}`, [
            publish,
          ])
        )
          continue;
        const got = item ? describeValue(item.value) : 'nothing';
        ctx.expect(item?.value.kind === 'text' && item.value.text === text, `${contentType} body came back as ${got}`, [
          publish,
        ]);
      }
    },
  },
  {
    id: 'publish.empty-message',
    kind: 'active',
    level: 'observed',
    title: 'An empty body is a valid message, delivered as empty text',
    source: 'OpenAPI x-emulator-empty-body: "An empty body is a valid message (empty text, or zero bytes)."',
    async run(ctx) {
      const result = await roundTrip(ctx, new Uint8Array(0), 'text/plain');
      if (!result) return;
      const { publish, item } = result;
      if (
        !ctx.expect(publish.status === 204, `an empty text/plain publish answered ${publish.status ?? publish.error}`, [
          publish,
        ])
      )
        return;
      ctx.expect(
        item?.value.kind === 'text' && item.value.text === '',
        `the empty message came back as ${item ? describeValue(item.value) : 'nothing'}`,
        [publish],
      );
    },
  },
  {
    id: 'publish.invalid-utf8-400',
    kind: 'active',
    level: 'observed',
    title: 'text/plain that is not UTF-8 answers 400',
    source: 'OpenAPI publish text/plain: "UTF-8 text. Invalid UTF-8 answers 400 `invalid_utf8`."',
    async run(ctx) {
      const topic = ctx.target.newTopic(ctx.rule.id);
      const exchange = await ctx.target.publish(ctx.rule.id, topic, new Uint8Array([0x61, 0xff, 0xfe, 0x62]), {
        contentType: 'text/plain',
      });
      ctx.expect(exchange.status === 400, `invalid UTF-8 as text/plain answered ${exchange.status ?? exchange.error}`, [
        exchange,
      ]);
    },
  },
  {
    id: 'publish.missing-content-type-400',
    kind: 'active',
    level: 'observed',
    title: 'A publish without a Content-Type answers 400',
    source:
      '§4.1 Content-Type "Required: yes"; OpenAPI x-emulator-content-types: "A missing Content-Type is always 400"',
    async run(ctx) {
      const topic = ctx.target.newTopic(ctx.rule.id);
      for (const contentType of [null]) {
        const exchange = await ctx.target.publish(ctx.rule.id, topic, textBytes(marker(ctx, 'content-type')), {
          contentType,
        });
        ctx.expect(
          exchange.status === 400,
          `Content-Type ${contentType ?? '(none)'} answered ${exchange.status ?? exchange.error}`,
          [exchange],
        );
      }
    },
  },
];
