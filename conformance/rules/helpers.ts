// Request patterns the active rules share. Every wait is bounded: a long-poll is only sent
// where a message will arrive (published before, or nudged after), or with a short abort.
import { advance } from '../answer.js';
import { decodeElements, type Element, type Item } from '../elements.js';
import type { Cursor, Exchange } from '../exchange.js';
import { textBytes } from '../target.js';
import type { RuleContext } from './types.js';

export interface Answer {
  exchange: Exchange;
  elements: Element[];
  items: Item[];
  /** The cursor a client sends next. */
  next: Cursor;
}

export function answerOf(exchange: Exchange, cursor: Cursor): Answer | undefined {
  if (exchange.status !== 200) return undefined;
  const elements = decodeElements(exchange.json);
  if (!elements) return undefined;
  return {
    exchange,
    elements,
    items: elements.filter((e): e is Item => e.kind === 'item'),
    next: advance(cursor, elements),
  };
}

const delay = (ms: number): Promise<'timer'> => new Promise((resolve) => setTimeout(() => resolve('timer'), ms));

/** A unique text for this run, so a delivered value can be told apart from any other. */
export function marker(ctx: RuleContext, label: string): string {
  return `conformance-${ctx.target.options.runId}-${label}`;
}

/** Publishes one text message; records a failure unless it answered 204. */
export async function publishOk(ctx: RuleContext, topic: string, text: string): Promise<Exchange> {
  const exchange = await ctx.target.publishText(ctx.rule.id, topic, text);
  ctx.expect(
    exchange.status === 204,
    `publishing ${JSON.stringify(text.slice(0, 40))} answered ${exchange.status ?? exchange.error}`,
    [exchange],
  );
  return exchange;
}

/**
 * Sends `poll` (a subscribe that may wait for the next message) and publishes until it is
 * answered: a first publish at once, then one every `pace.nudgeEveryMs` while it waits, so that
 * some publish arrives after the poll did, however late it arrives (a slow link, a busy
 * machine). Bounded by the poll itself, which gives up after the run's --poll-timeout.
 * Returns the texts published, in order.
 */
export async function publishUntilAnswered(
  ctx: RuleContext,
  topic: string,
  poll: Promise<Exchange>,
  label: string,
): Promise<string[]> {
  const texts: string[] = [];
  for (let i = 1; ; i += 1) {
    if (i > 1 && (await Promise.race([poll, delay(ctx.target.pace.nudgeEveryMs)])) !== 'timer') break;
    texts.push(marker(ctx, `${label}-${topic}-${i}`));
    await publishOk(ctx, topic, texts[texts.length - 1]!);
  }
  return texts;
}

/** How often a first request is asked again after an empty answer (the endpoint's long-poll timeout). */
const FIRST_REQUEST_ATTEMPTS = 3;

/**
 * A first request (sequence_number=0, sequence_page=0) on `topic`, answered whatever a first
 * request starts from: publishes go out until it is (publishUntilAnswered). Returns undefined
 * (with a failure recorded) when it is not answered with an item.
 */
export async function firstAnswer(
  ctx: RuleContext,
  topic: string,
  options: { auth?: 'header' | 'query' } = {},
): Promise<Answer | undefined> {
  const cursor = { n: 0, page: 0 };
  let exchange: Exchange;
  let answer: Answer | undefined;
  let last: string;
  // An empty 200 is the endpoint's long-poll timeout: over a slow link the first publish may
  // reach it before the poll, and the next nudge after its timeout. Asked again, a few times;
  // an endpoint that never answers a first request with an item still fails.
  for (let attempt = 1; ; attempt += 1) {
    const poll = ctx.target.subscribe(ctx.rule.id, topic, cursor, { auth: options.auth ?? 'header' });
    last = (await publishUntilAnswered(ctx, topic, poll, 'warm-up')).at(-1)!;
    exchange = await poll;
    answer = answerOf(exchange, cursor);
    const timedOut = exchange.status === 200 && answer !== undefined && answer.items.length === 0;
    if (!timedOut || attempt === FIRST_REQUEST_ATTEMPTS) break;
  }
  if (!answer || answer.items.length === 0) {
    ctx.fail(
      `a first request was not answered with an item while messages were published (${exchange.status ?? exchange.error})`,
      [exchange],
    );
    return undefined;
  }
  // A nudge may have gone out just after the answer: read past it, so that what the rule
  // publishes next is the first thing after `next`.
  const isLast = (item: Item): boolean => textOf(item) === last;
  if (answer.items.some(isLast)) return answer;
  const rest = await readForward(ctx, topic, answer.next, Number.POSITIVE_INFINITY, 5, isLast);
  return { ...answer, items: [...answer.items, ...rest.items], next: rest.next };
}

/**
 * Polls from `cursor` as a client following the contract does, until `count` items came (or
 * one that is `last`), or a poll waits `pace.settleMs` (all read here was published before: no more comes).
 */
export async function readForward(
  ctx: RuleContext,
  topic: string,
  cursor: Cursor,
  count: number,
  maxPolls = 20,
  last?: (item: Item) => boolean,
): Promise<{ answers: Answer[]; items: Item[]; next: Cursor }> {
  const answers: Answer[] = [];
  const items: Item[] = [];
  let next = cursor;
  for (let i = 0; i < maxPolls && items.length < count && !(last && items.some(last)); i += 1) {
    const exchange = await ctx.target.subscribe(ctx.rule.id, topic, next, { timeoutMs: ctx.target.pace.settleMs });
    const answer = answerOf(exchange, next);
    if (!answer) {
      if (exchange.error === 'timeout' || exchange.status === 408 || exchange.status === 504) break;
      ctx.fail(`a subscribe from (page ${next.page}, number ${next.n}) answered ${exchange.status ?? exchange.error}`, [
        exchange,
      ]);
      break;
    }
    if (answer.elements.length === 0) break;
    answers.push(answer);
    items.push(...answer.items);
    next = answer.next;
  }
  return { answers, items, next };
}

export function textOf(item: Item): string | undefined {
  return item.value.kind === 'text' ? item.value.text : undefined;
}

export { textBytes };
