// Observations: questions public sources leave open, answered by what the endpoint does. Each
// records one line (`ctx.note`) and never fails, so that one run against the live service
// settles it (service-facts "Subscribe" and "Publish"; the emulator's answers are its
// x-emulator-first-request, x-emulator-discontinuity and x-emulator-content-types notes).
import { decodeElements, describeValue, type Element } from '../elements.js';
import type { Cursor, Exchange } from '../exchange.js';
import {
  answerOf,
  firstAnswer,
  marker,
  publishOk,
  publishUntilAnswered,
  readForward,
  textBytes,
  textOf,
  type Answer,
} from './helpers.js';
import type { ActiveRule, ResponseRule, RuleContext } from './types.js';

/**
 * A subscribe at `cursor` that waits: nudged by publishes (texts from `label`) until it is
 * answered (publishUntilAnswered). Returns the answer and the texts published while it waited.
 */
async function nudged(
  ctx: RuleContext,
  topic: string,
  cursor: Cursor,
  label: string,
): Promise<{ answer?: Answer; exchange: Exchange; nudges: string[] }> {
  const poll = ctx.target.subscribe(ctx.rule.id, topic, cursor);
  const nudges = await publishUntilAnswered(ctx, topic, poll, label);
  const exchange = await poll;
  const answer = answerOf(exchange, cursor);
  return { ...(answer ? { answer } : {}), exchange, nudges };
}

/** Whether a discontinuity is followed, in the same answer, by the item it announces. */
function comesWithItsItem(elements: Element[], index: number): boolean {
  const gap = elements[index];
  const next = elements[index + 1];
  return gap?.kind === 'discontinuity' && next?.kind === 'item' && next.n === gap.next && next.page === gap.page;
}

const describeElements = (elements: Element[]): string =>
  elements
    .map((e) =>
      e.kind === 'item'
        ? `item ${e.n}`
        : e.kind === 'discontinuity'
          ? `discontinuity to ${e.next}@${e.page}`
          : 'malformed',
    )
    .join(', ') || 'no elements';

/** Extra content types seen in the wild (service-facts "Publish"), and how each came back. */
const EXTRA_CONTENT_TYPES = [
  'text/plain;charset=UTF-8',
  'application/json; charset=utf-8',
  'application/cloudevents+json',
  'text/markdown',
  'octet-stream',
  'image/png',
];

const firstRequest: ActiveRule = {
  id: 'observe.first-request',
  kind: 'active',
  level: 'observation',
  title: 'Where a first request (0, 0) starts: at once with a retained message, or waiting for the next',
  source:
    'service-facts "Subscribe": the Postman description says a first request waits until a message is published; public clients re-poll without a cursor; OpenAPI x-emulator-first-request',
  async run(ctx) {
    const topic = ctx.target.newTopic(ctx.rule.id);
    const texts = ['first', 'second', 'latest'].map((t) => marker(ctx, t));
    for (const text of texts) await publishOk(ctx, topic, text);
    const cursor = { n: 0, page: 0 };
    const exchange = await ctx.target.subscribe(ctx.rule.id, topic, cursor, { timeoutMs: ctx.target.pace.atOnceMs });
    const item = answerOf(exchange, cursor)?.items[0];
    if (item) {
      const which =
        textOf(item) === texts[2]
          ? 'the latest retained message'
          : textOf(item) === texts[0]
            ? 'the oldest retained message'
            : describeValue(item.value);
      ctx.note(`answers at once, beginning with ${which}`);
      return;
    }
    if (exchange.error !== 'timeout') {
      ctx.note(`answers at once with no item (${exchange.status ?? exchange.error})`);
      return;
    }
    const { answer, nudges } = await nudged(ctx, topic, cursor, 'first-request');
    const got = answer?.items[0];
    if (got && nudges.includes(textOf(got) ?? '')) ctx.note('waits for the next message published, and answers it');
    else if (got)
      ctx.note(
        `waits, then answers ${textOf(got) === texts[2] ? 'the message that was latest before it' : describeValue(got.value)}`,
      );
    else ctx.note(`waits, and a publish while it waited did not answer it within ${nudges.length * 400} ms`);
  },
};

const aheadOfStream: ActiveRule = {
  id: 'observe.ahead-of-stream',
  kind: 'active',
  level: 'observation',
  title: 'A number ahead of the stream: a discontinuity alone at once, or waiting for the item it announces',
  source:
    'service-facts "Subscribe": no public example shows a discontinuity alone; the contract places one "before the item that follows the gap in the same items array"; OpenAPI x-emulator-discontinuity',
  async run(ctx) {
    const topic = ctx.target.newTopic(ctx.rule.id);
    const first = await firstAnswer(ctx, topic);
    if (!first) return;
    const cursor = { n: first.next.n + 50, page: first.next.page };
    const exchange = await ctx.target.subscribe(ctx.rule.id, topic, cursor, { timeoutMs: ctx.target.pace.atOnceMs });
    const at = answerOf(exchange, cursor);
    if (at) {
      ctx.note(`number ${cursor.n} (the next is ${first.next.n}) answers at once: ${describeElements(at.elements)}`);
      return;
    }
    if (exchange.error !== 'timeout') {
      ctx.note(`number ${cursor.n} (the next is ${first.next.n}) answers ${exchange.status ?? exchange.error}`);
      return;
    }
    const { answer, exchange: waited } = await nudged(ctx, topic, cursor, 'ahead');
    ctx.note(
      `number ${cursor.n} (the next is ${first.next.n}) waits; after a publish: ${answer ? describeElements(answer.elements) : `${waited.status ?? waited.error}`}`,
    );
  },
};

const discontinuityAlone: ResponseRule = {
  id: 'observe.discontinuity-alone',
  kind: 'response',
  level: 'observation',
  title: 'Whether any subscribe answer holds a discontinuity without the item it announces',
  source:
    'service-facts "Subscribe": clients resume at new_topic_sequence or at new_topic_sequence + 1; a discontinuity always delivered with its item is safe for both; OpenAPI x-emulator-discontinuity',
  inspect(exchange) {
    if (exchange.operation !== 'subscribe' || exchange.status !== 200) return null;
    const elements = decodeElements(exchange.json);
    if (!elements) return null;
    const alone = elements.findIndex((e, i) => e.kind === 'discontinuity' && !comesWithItsItem(elements, i));
    return alone === -1 ? [] : [`a discontinuity without the item it announces: ${describeElements(elements)}`];
  },
};

const contentTypes: ActiveRule = {
  id: 'observe.content-types',
  kind: 'active',
  level: 'observation',
  title: 'Which content types seen in the wild a publish accepts, and how each comes back',
  source:
    'service-facts "Publish"/"Subscribe": fetch sends text/plain;charset=UTF-8, EventBridge custom +json types, an older docs page writes octet-stream; what the live service accepts is not published; OpenAPI x-emulator-content-types',
  async run(ctx) {
    const topic = ctx.target.newTopic(ctx.rule.id);
    const first = await firstAnswer(ctx, topic);
    if (!first) return;
    const accepted: string[] = [];
    const refused: string[] = [];
    for (const [i, contentType] of EXTRA_CONTENT_TYPES.entries()) {
      const publish = await ctx.target.publish(ctx.rule.id, topic, textBytes(marker(ctx, `type-${i}`)), {
        contentType,
      });
      if (publish.status === 204) accepted.push(contentType);
      else refused.push(`${contentType} (${publish.status ?? publish.error})`);
    }
    const { items } = await readForward(ctx, topic, first.next, accepted.length, 10);
    const how = accepted.map((type, i) => `${type} as ${items[i]?.value.kind ?? 'nothing'}`);
    ctx.note(`accepts ${how.join(', ') || 'none of them'}${refused.length ? `; refuses ${refused.join(', ')}` : ''}`);
  },
};

export const observationRules = [firstRequest, aheadOfStream, discontinuityAlone, contentTypes];
