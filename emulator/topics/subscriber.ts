import type { Cursor, Discontinuity } from './read-plan.js';

/** What a read gave: the JSON body and the facts of it, so nobody parses the body again. */
export interface ReadAnswer {
  /** `{"items":[...]}`, ready to send. */
  readonly body: string;
  /** Items delivered (a discontinuity is not an item). */
  readonly items: number;
  /** The page the items are on; null for the empty answer. */
  readonly page: number | null;
  /** The number of the first item (the others follow in order). */
  readonly from: number;
  readonly discontinuity: Discontinuity | undefined;
}

export const EMPTY_ITEMS_BODY = '{"items":[]}';

/** The answer of a long-poll that ends with nothing: its timeout, shutdown, a reset. */
export const EMPTY_READ: ReadAnswer = {
  body: EMPTY_ITEMS_BODY,
  items: 0,
  page: null,
  from: 0,
  discontinuity: undefined,
};

/** A subscribe request parked on a topic until something is there for its cursor. */
export interface WaitingSubscriber {
  readonly cursor: Cursor;
  /** Clock reading when it started waiting. */
  readonly since: number;
  /** The most items its answer may carry now: Infinity, unless an "after N items" fault counts it. */
  readonly maxItems: number;
  /** Answers the request; called at most once, after the topic has unparked it. */
  answer(read: ReadAnswer): void;
}
