// Rules checked on every publish and subscribe response the suite sees, whichever rule
// or scenario sent the request: the OpenAPI document's statuses, content types and
// schemas, and what a single subscribe answer must satisfy given the cursor it was asked with.
import { checkAnswer, type AnswerProblem, type AnswerRule } from '../answer.js';
import { decodeElements, type Element } from '../elements.js';
import { bodyText, header, mediaType, type Exchange } from '../exchange.js';
import type { ResponseRule } from './types.js';

const isService = (e: Exchange): boolean =>
  (e.operation === 'publish' || e.operation === 'subscribe') && e.status !== undefined;
const isSubscribeOk = (e: Exchange): boolean => e.operation === 'subscribe' && e.status === 200;

const elementsCache = new WeakMap<Exchange, Element[] | undefined>();
function elementsOf(exchange: Exchange): Element[] | undefined {
  if (!elementsCache.has(exchange)) elementsCache.set(exchange, decodeElements(exchange.json));
  return elementsCache.get(exchange);
}

const answerCache = new WeakMap<Exchange, AnswerProblem[]>();
function answerProblems(exchange: Exchange): AnswerProblem[] {
  let problems = answerCache.get(exchange);
  if (!problems) {
    const elements = elementsOf(exchange);
    problems = elements && exchange.cursor ? checkAnswer(exchange.cursor, elements) : [];
    answerCache.set(exchange, problems);
  }
  return problems;
}

function answerRule(id: AnswerRule, title: string, source: string): ResponseRule {
  return {
    id,
    kind: 'response',
    level: 'documented',
    title,
    source,
    inspect(exchange) {
      if (!isSubscribeOk(exchange) || !elementsOf(exchange)) return null;
      return answerProblems(exchange)
        .filter((p) => p.rule === id)
        .map((p) => p.message);
    },
  };
}

/** Answers that mean "nothing arrived before the long-poll timeout"; the contract leaves that open. */
const TIMEOUT_STATUSES = new Set([408, 504]);

export const responseRules: ResponseRule[] = [
  {
    id: 'openapi.status',
    kind: 'response',
    level: 'documented',
    title: 'Every status is one the document lists for the operation',
    source:
      '§7 Errors: "Status codes, for both operations unless noted: 400, 401, 403, 404, 429, 500"; §4.1 "Response on success: status 204"; §4.2 "Success is status 200"',
    inspect(exchange, contract) {
      if (!isService(exchange)) return null;
      const operation = exchange.operation as 'publish' | 'subscribe';
      const allowed = contract.operations[operation].statuses;
      const status = exchange.status!;
      if (allowed.has(status) || (operation === 'subscribe' && TIMEOUT_STATUSES.has(status))) return [];
      return [`${operation} answered ${status}; the document lists ${[...allowed].sort().join(', ')}`];
    },
  },
  {
    id: 'openapi.content-type',
    kind: 'response',
    level: 'documented',
    title: 'Publish success has an empty body; subscribe success is JSON',
    source: '§4.1 "Response on success: status 204, empty body"; §4.2 "Success is status 200 with a JSON body"',
    inspect(exchange) {
      if (exchange.operation === 'publish' && exchange.status === 204) {
        const size = exchange.responseBody?.length ?? 0;
        return size === 0 ? [] : [`publish answered 204 with a ${size}-byte body`];
      }
      if (!isSubscribeOk(exchange)) return null;
      const type = mediaType(exchange);
      return type === 'application/json'
        ? []
        : [`subscribe answered 200 with Content-Type ${JSON.stringify(header(exchange, 'content-type') ?? '')}`];
    },
  },
  {
    id: 'subscribe.body-schema',
    kind: 'response',
    level: 'documented',
    title: 'A subscribe answer is an object with an items array of items and discontinuities',
    source: '§4.2 "an object with the member `items`, an array of elements as defined in part 2"',
    inspect(exchange, contract) {
      if (!isSubscribeOk(exchange)) return null;
      if (exchange.json === undefined)
        return [`the body is not JSON: ${JSON.stringify(bodyText(exchange).slice(0, 80))}`];
      return contract.checkSubscribeBody(exchange.json).map((p) => `${p.path}: ${p.message}`);
    },
  },
  answerRule(
    'subscribe.element-exactly-one-member',
    'Each element holds exactly one of item or discontinuity',
    '§2 "Each element of the `items` array holds exactly one of the members `item` or `discontinuity`."',
  ),
  answerRule(
    'stream.contiguous-numbers',
    'Within an answer, numbers on a page go up by one',
    '§2 topic_sequence_number "Sequence number of the message within the page"; §4.2 "When the sequence is not contiguous ..., a discontinuity element precedes the next item."',
  ),
  answerRule(
    'stream.discontinuity-before-gap',
    'A gap in the numbers is announced by a discontinuity before the item after it',
    '§4.2 "When the sequence is not contiguous (for example the page changed), a discontinuity element precedes the next item."',
  ),
  answerRule(
    'stream.page-change-discontinuity',
    'Items from another page than the one asked for come after a discontinuity',
    '§4.2 "When the sequence is not contiguous (for example the page changed), a discontinuity element precedes the next item."',
  ),
  answerRule(
    'stream.advance-no-repeat',
    'Advancing with last + 1 and the last page never repeats a message',
    '§4.2 "The client advances by setting sequence_number to the last received topic_sequence_number + 1 and sequence_page to the last received page."',
  ),
  answerRule(
    'stream.advance-no-skip',
    'Advancing with last + 1 and the last page never skips silently',
    '§4.2 "The client advances by setting sequence_number to the last received topic_sequence_number + 1 ..."; §1 "so that a client can resume where it stopped and detect gaps"',
  ),
  answerRule(
    'discontinuity.next-item-matches',
    'The item after a discontinuity is where it says delivery continues',
    '§2 discontinuity: "new_topic_sequence: Sequence number from which delivery continues. new_sequence_page: Page that applies from then on."',
  ),
  answerRule(
    'discontinuity.precedes-item',
    'A discontinuity stands before the item that follows the gap, not after it',
    '§2 "A discontinuity element is placed before the item that follows the gap in the same `items` array."',
  ),
  {
    id: 'errors.bad-request-has-detail',
    kind: 'response',
    level: 'documented',
    title: 'A 400 answer has a body with further detail',
    source: '§7 "400: The request is incorrectly specified ... The body holds further detail."',
    inspect(exchange) {
      if (!isService(exchange) || exchange.status !== 400) return null;
      return (exchange.responseBody?.length ?? 0) > 0 ? [] : ['a 400 answer has an empty body'];
    },
  },
  {
    id: 'errors.json-body',
    kind: 'response',
    level: 'observed',
    title: 'Error answers are JSON {code, message} with a stable code',
    source:
      'OpenAPI x-emulator-error-body: "Always JSON {"code": "<stable code>", "message": "<human text>"}"; service-facts "Errors": the live format is not published',
    inspect(exchange, contract) {
      if (!isService(exchange) || exchange.status! < 400 || TIMEOUT_STATUSES.has(exchange.status!)) return null;
      if (mediaType(exchange) !== 'application/json')
        return [
          `${exchange.status} answered with Content-Type ${JSON.stringify(header(exchange, 'content-type') ?? '')}`,
        ];
      if (exchange.json === undefined) return [`${exchange.status} body is not JSON`];
      return contract.checkErrorBody(exchange.json).map((p) => `${exchange.status} body ${p.path}: ${p.message}`);
    },
  },
  {
    id: 'subscribe.strict-schema',
    kind: 'response',
    level: 'observed',
    title: "Subscribe answers match the emulator's full schema (value is exactly text or binary)",
    source: 'OpenAPI Value: "Exactly one of `text` or `binary`" (x-emulator-binary-values)',
    inspect(exchange, contract) {
      if (!isSubscribeOk(exchange) || exchange.json === undefined) return null;
      return contract.checkSubscribeBodyStrict(exchange.json).map((p) => `${p.path}: ${p.message}`);
    },
  },
  {
    id: 'value.binary-base64',
    kind: 'response',
    level: 'observed',
    title: 'Binary messages come back as value.binary, standard base64 of the exact bytes',
    source:
      'OpenAPI x-emulator-binary-values: "delivered as `value.binary`, the standard base64 (RFC 4648, with padding) of its exact bytes"; contract §2 "Representation of a binary message in this response: not shown."',
    inspect(exchange) {
      const elements = isSubscribeOk(exchange) ? elementsOf(exchange) : undefined;
      if (!elements) return null;
      return elements
        .filter((e) => e.kind === 'item' && e.value.kind === 'opaque')
        .map(
          (e) =>
            `items[${e.index}].item.value is not text or standard base64 binary: ${JSON.stringify((e as { value: { raw: unknown } }).value.raw).slice(0, 60)}`,
        );
    },
  },
  {
    id: 'errors.retry-after',
    kind: 'response',
    level: 'observed',
    title: 'A 429 says when to retry (Retry-After, seconds)',
    source: 'OpenAPI TooManyRequests: "`Retry-After` (seconds) says when to try again."',
    inspect(exchange) {
      if (!isService(exchange) || exchange.status !== 429) return null;
      const value = header(exchange, 'retry-after');
      return value !== undefined && /^\d+$/.test(value.trim())
        ? []
        : [`429 with Retry-After ${JSON.stringify(value ?? null)}`];
    },
  },
];
