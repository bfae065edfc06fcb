import type { JournalEntry } from '../../journal/query.js';
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
): RuleOutcome {
  const outcome: RuleOutcome = { occasions: 0, violations: [] };
  for (const subscription of client.subscriptions) {
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

// Asking again exactly what the answer answered is a retry of a response the client did not
// get (it gave up on the poll as the answer left): not a wrong cursor.
const onExpected = ({ poll, position }: Step) =>
  sameCursor(poll.cursor, position.expected) ||
  sameCursor(poll.cursor, position.alsoAccepted) ||
  sameCursor(poll.cursor, position.basisEntry?.cursor ?? null);

/** After an answer with items (and no discontinuity), the next poll asks for last + 1 on that page. */
export function checkNextCursor(client: ClientView): RuleOutcome {
  return judgeSteps(
    client,
    ({ poll, position }) => position.basis === 'items' && !isFirstRequest(poll.cursor),
    (step) =>
      onExpected(step)
        ? undefined
        : `after items up to ${step.position.expected!.sequenceNumber - 1} it asked for ${showCursor(step.poll.cursor)}, not ${showCursor(step.position.expected)}`,
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

/** After `{"items":[]}`, the next poll repeats the cursor; a first request would lose what is published meanwhile. */
export function checkAfterEmpty(client: ClientView): RuleOutcome {
  return judgeSteps(
    client,
    ({ position }) => position.basis === 'empty',
    (step) =>
      onExpected(step)
        ? undefined
        : `after an empty answer to ${showCursor(step.position.expected)} it polled with ${showCursor(step.poll.cursor)}`,
  );
}

/** Once a subscription has a position, it never makes a first request again. */
export function checkFirstRequestOnce(client: ClientView): RuleOutcome {
  return judgeSteps(
    client,
    ({ position }) => position.expected !== null && position.basis !== 'empty',
    ({ poll, position }) =>
      isFirstRequest(poll.cursor)
        ? `it made a first request (${showCursor(poll.cursor)}) where it should have asked for ${showCursor(position.expected)}`
        : undefined,
  );
}
