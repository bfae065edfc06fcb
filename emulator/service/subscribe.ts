import type { EmulatorContext } from '../context.js';
import { EmulatorError } from '../errors.js';
import type { Cursor } from '../topics/read-plan.js';

// Subscribing, whichever door it came through (the HTTP API's long-poll GET, http/handlers/; the
// provider's Subscribe stream, grpc/server.ts), once admission has let it in: the cursor it
// sent, then either an answer at once (TopicStore.read, planRead) or a wait that counts against
// --max-waiting. A gRPC stream waits for its whole life, so it is counted as it opens.

/** Names of the cursor's two parts as the door's request spells them, for the error message. */
export interface CursorNames {
  number: string;
  page: string;
}

function requireWhole(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new EmulatorError(
      'invalid_parameter',
      `Invalid request parameter: ${name} must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}.`,
    );
}

/** The cursor a subscriber sent (absent parts are 0); a part that is not a whole number is answered 400. */
export function cursorOf(sequenceNumber: number, sequencePage: number, names: CursorNames): Cursor {
  requireWhole(names.number, sequenceNumber);
  requireWhole(names.page, sequencePage);
  return { sequenceNumber, sequencePage };
}

/**
 * The answer to one more subscriber that would wait past --max-waiting (429 with Retry-After;
 * decided by limits/account-limits.ts's WAITING_SUBSCRIBERS); undefined while there is room. Nothing is made while there is.
 */
export function waitingRefusal(context: Pick<EmulatorContext, 'waiting' | 'settings'>): EmulatorError | undefined {
  const max = context.settings.maxWaitingSubscribers;
  if (context.waiting.size < max) return undefined;
  return new EmulatorError('limit_exceeded', `Too many waiting subscribers (the limit is ${max}): try again shortly.`, {
    'retry-after': '1',
  });
}
