import type { Cursor } from './read-plan.js';

/** A subscribe request parked on a topic until something is there for its cursor. */
export interface WaitingSubscriber {
  readonly cursor: Cursor;
  /** Clock reading when it started waiting. */
  readonly since: number;
  /** Answers the request with a ready-made JSON body; called at most once. */
  answer(body: string): void;
  /** Resolves once the answer has left (or the client has gone): shutdown waits on it. */
  flushed(): Promise<void>;
}

export const EMPTY_ITEMS_BODY = '{"items":[]}';
