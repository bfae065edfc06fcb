import type { JournalEntry } from '../../openapi/generated/control-types.js';
import { isFirstRequest, sameCursor, showCursor, type ClientView, type RuleOutcome } from '../rule.js';
import { positionsOf, type Position } from '../subscriptions.js';

// Where a subscription resumes, judged poll by poll against what its earlier answers said
// (subscriptions.ts `advance`). Each poll is judged by one rule only: the kind of answer it
// follows decides which.

type Step = { poll: JournalEntry; position: Position };

function judgeSteps(
  client: ClientView,
  applies: (step: Step) => boolean,
  wrong: (step: Step) => string | undefined,
  onSubscription?: () => void,
): RuleOutcome {
  const outcome: RuleOutcome = { occasions: 0, violations: [] };
  for (const subscription of client.subscriptions) {
    onSubscription?.();
    for (const step of positionsOf(subscription)) {
      if (!applies(step)) continue;
      outcome.occasions++;
      const message = wrong(step);
      if (message)
        outcome.violations.push({
          message: `subscription ${subscription.id} on ${subscription.cache}/${subscription.topic}: ${message}`,
          requests: [step.position.basisEntry!.id, step.poll.id],
        });
    }
  }
  return outcome;
}

const onNext = ({ poll, position }: Step) =>
  sameCursor(poll.cursor, position.expected) || sameCursor(poll.cursor, position.alsoAccepted);

// Asking again exactly what the answer answered is a retry of a response the client did not
// get (it gave up on the poll as the answer left): not a wrong cursor, once. Asking it again
// and again is a client that receives the same messages over and over.
const askedAgain = ({ poll, position }: Step) => sameCursor(poll.cursor, position.basisEntry?.cursor ?? null);
const onExpected = (step: Step) => onNext(step) || askedAgain(step);

/** After an answer with items (and no discontinuity), the next poll asks for last + 1 on that page. */
export function checkNextCursor(client: ClientView): RuleOutcome {
  let again = 0;
  return judgeSteps(
    client,
    ({ poll, position }) => position.basis === 'items' && !isFirstRequest(poll.cursor),
    (step) => {
      again = askedAgain(step) && !onNext(step) ? again + 1 : 0;
      if (onNext(step) || again === 1) return undefined;
      const last = step.position.expected!.sequenceNumber - 1;
      return again > 1
        ? `after items up to ${last} it asked again for ${showCursor(step.poll.cursor)} (${again} times in a row), receiving the same messages again`
        : `after items up to ${last} it asked for ${showCursor(step.poll.cursor)}, not ${showCursor(step.position.expected)}`;
    },
    () => (again = 0),
  );
}

/** After a discontinuity, the next poll continues on new_sequence_page from the items that followed it. */
export function checkAfterDiscontinuity(client: ClientView): RuleOutcome {
  return judgeSteps(
    client,
    ({ poll, position }) => position.basis === 'discontinuity' && !isFirstRequest(poll.cursor),
    (step) =>
      onExpected(step)
        ? undefined
        : `after a discontinuity to page ${step.position.expected!.sequencePage} it asked for ${showCursor(step.poll.cursor)}, not ${showCursor(step.position.expected)}`,
  );
}

/**
 * What a first request lost: the messages numbered from where the subscription stood up to the
 * first item its answer brought, on the same page (a first request waits for the next message,
 * so everything published while the client was between polls is gone). `undefined` when the
 * answer tells nothing yet (no items, another page: a page change took the rest anyway).
 */
export function lostByFirstRequest({ poll, position }: Step): { from: number; to: number } | undefined {
  const expected = position.expected;
  const first = poll.items[0];
  if (!expected || !isFirstRequest(poll.cursor) || poll.status !== 200 || first === undefined) return undefined;
  if (poll.page !== expected.sequencePage || first <= expected.sequenceNumber) return undefined;
  return { from: expected.sequenceNumber, to: first - 1 };
}

const showLoss = ({ from, to }: { from: number; to: number }) =>
  from === to ? `lost message ${from}` : `lost ${to - from + 1} messages (${from} to ${to})`;

/**
 * After `{"items":[]}`, the next poll repeats the cursor. A first request instead is judged by
 * what it lost: none lost is no violation (the client was lucky), messages lost are.
 */
export function checkAfterEmpty(client: ClientView): RuleOutcome {
  return judgeSteps(
    client,
    ({ position }) => position.basis === 'empty',
    (step) => {
      if (onExpected(step)) return undefined;
      if (isFirstRequest(step.poll.cursor)) {
        const lost = lostByFirstRequest(step);
        return lost
          ? `after an empty answer to ${showCursor(step.position.expected)} it polled with ${showCursor(step.poll.cursor)} and ${showLoss(lost)}`
          : undefined;
      }
      return `after an empty answer to ${showCursor(step.position.expected)} it polled with ${showCursor(step.poll.cursor)}`;
    },
  );
}

/**
 * Once a subscription has a position, a first request (a client that re-polls without a
 * cursor) loses what was published while it was between polls: judged by what it lost.
 */
export function checkFirstRequestOnce(client: ClientView): RuleOutcome {
  return judgeSteps(
    client,
    ({ position }) => position.expected !== null && position.basis !== 'empty',
    (step) => {
      const lost = lostByFirstRequest(step);
      return lost
        ? `it polled with ${showCursor(step.poll.cursor)} where it should have asked for ${showCursor(step.position.expected)}, and ${showLoss(lost)}`
        : undefined;
    },
  );
}
