// The subscribe response as it travels on the wire (openapi/topics.yaml, components.schemas),
// and the one check that a parsed body really has that shape before the client trusts it.

import type {
  Discontinuity,
  Item,
  SubscribeElement,
  SubscribeResponse,
  Value,
} from '../openapi/generated/topics-types.js';
import { TopicsProtocolError } from './errors.js';

// Value: exactly one of `text` (UTF-8 message) or `binary` (standard base64 of the bytes).
// SubscribeElement: exactly one of `item` or `discontinuity`. SubscribeResponse: an empty
// `items` is a long-poll timeout (poll again with the same cursor).
export type { Discontinuity, Item, SubscribeElement, SubscribeResponse, Value };

/**
 * Checks a parsed 200 body against the documented shape. Members the document does not
 * name are kept, not refused, so a live service that adds fields does not break clients.
 */
export function parseSubscribeResponse(json: unknown, status: number, body: string): SubscribeResponse {
  const fail = (why: string): never => {
    throw new TopicsProtocolError(`Unexpected subscribe response: ${why}`, status, body);
  };
  if (!isRecord(json) || !Array.isArray(json['items'])) return fail('no "items" array');
  json['items'].forEach((element: unknown, index) => {
    const where = `items[${index}]`;
    if (!isRecord(element)) return fail(`${where} is not an object`);
    const hasItem = 'item' in element;
    if (hasItem === 'discontinuity' in element)
      return fail(`${where} must hold exactly one of "item" or "discontinuity"`);
    if (hasItem) return checkItem(element['item'], `${where}.item`, fail);
    return checkCounters(element['discontinuity'], `${where}.discontinuity`, DISCONTINUITY_FIELDS, fail);
  });
  return json as unknown as SubscribeResponse;
}

const ITEM_FIELDS = ['sequence_page', 'topic_sequence_number'] as const;
const DISCONTINUITY_FIELDS = ['last_topic_sequence', 'new_topic_sequence', 'new_sequence_page'] as const;

function checkItem(item: unknown, where: string, fail: (why: string) => never): void {
  checkCounters(item, where, ITEM_FIELDS, fail);
  const value = (item as Record<string, unknown>)['value'];
  if (!isRecord(value)) return fail(`${where}.value is not an object`);
  const hasText = 'text' in value;
  if (hasText === 'binary' in value) return fail(`${where}.value must hold exactly one of "text" or "binary"`);
  const member = hasText ? 'text' : 'binary';
  if (typeof value[member] !== 'string') return fail(`${where}.value.${member} is not a string`);
}

function checkCounters(target: unknown, where: string, fields: readonly string[], fail: (why: string) => never): void {
  if (!isRecord(target)) return fail(`${where} is not an object`);
  for (const field of fields) {
    const n = target[field];
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
      return fail(`${where}.${field} is not a non-negative integer`);
    }
  }
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
