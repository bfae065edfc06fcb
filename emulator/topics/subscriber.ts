import type { Cursor } from './read-plan.js';

/** A subscribe request parked on a topic until something is there for its cursor. */
export interface WaitingSubscriber {
  readonly cursor: Cursor;
  /** Clock reading when it started waiting. */
  readonly since: number;
  /** Answers the request with a ready-made JSON body; called at most once. */
  answer(body: string): void;
}

export const EMPTY_ITEMS_BODY = '{"items":[]}';
