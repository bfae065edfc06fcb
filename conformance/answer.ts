// The checks one subscribe answer allows on its own, given the cursor it was asked with:
// where the first item may start, contiguity within the answer, and where discontinuities
// stand. Pure functions; the stream model adds what needs several answers.
import type { Cursor } from './exchange.js';
import type { Element, Item } from './elements.js';

export type AnswerRule =
  | 'subscribe.element-exactly-one-member'
  | 'stream.advance-no-repeat'
  | 'stream.advance-no-skip'
  | 'stream.page-change-discontinuity'
  | 'stream.contiguous-numbers'
  | 'stream.discontinuity-before-gap'
  | 'discontinuity.next-item-matches'
  | 'discontinuity.precedes-item';

export interface AnswerProblem {
  rule: AnswerRule;
  message: string;
  /** Index of the offending element in `items`. */
  index: number;
}

/** Where the next item must be: page null means "any page" (the cursor sent page 0). */
interface Expected {
  page: number | null;
  n: number;
}

function expectedFrom(cursor: Cursor): Expected | null {
  // A first request (number 0) may start anywhere: the contract leaves that open.
  if (cursor.n === 0) return null;
  return { page: cursor.page === 0 ? null : cursor.page, n: cursor.n };
}

const at = (item: Item): string => `(page ${item.page}, number ${item.n})`;

export function checkAnswer(cursor: Cursor, elements: Element[]): AnswerProblem[] {
  const problems: AnswerProblem[] = [];
  let expected = expectedFrom(cursor);
  let previous: Item | null = null;
  let afterDiscontinuity = false;
  /** Discontinuities already reported as standing after their item. */
  const misplaced = new Set<number>();

  // A discontinuity right after the item it announces stands on the wrong side of it.
  const misplacedAfter = (item: Item): boolean => {
    const next = elements[item.index + 1];
    if (next?.kind !== 'discontinuity' || next.page !== item.page || next.next !== item.n) return false;
    misplaced.add(next.index);
    problems.push({
      rule: 'discontinuity.precedes-item',
      message: `the discontinuity announcing ${at(item)} stands after that item (index ${next.index}), not before it`,
      index: next.index,
    });
    return true;
  };

  for (const element of elements) {
    if (element.kind === 'malformed') {
      if (/both|neither/.test(element.reason)) {
        problems.push({
          rule: 'subscribe.element-exactly-one-member',
          message: `items[${element.index}]: ${element.reason}`,
          index: element.index,
        });
      }
      continue;
    }
    if (element.kind === 'discontinuity') {
      const next = elements[element.index + 1];
      if (
        !misplaced.has(element.index) &&
        next?.kind === 'item' &&
        (next.page !== element.page || next.n !== element.next)
      ) {
        problems.push({
          rule: 'discontinuity.next-item-matches',
          message: `discontinuity says delivery continues at (page ${element.page}, number ${element.next}) but the next item is ${at(next)}`,
          index: next.index,
        });
      }
      expected = { page: element.page, n: element.next };
      afterDiscontinuity = true;
      continue;
    }
    const item = element;
    if (afterDiscontinuity || expected === null) {
      // Checked against the discontinuity above, or a first request: anything may start here.
    } else if (previous === null) {
      const samePage = expected.page === null || item.page === expected.page;
      if (!samePage) {
        if (!misplacedAfter(item)) {
          problems.push({
            rule: 'stream.page-change-discontinuity',
            message: `asked for page ${expected.page} number ${expected.n}; got ${at(item)} with no discontinuity before it`,
            index: item.index,
          });
        }
      } else if (item.n < expected.n) {
        problems.push({
          rule: 'stream.advance-no-repeat',
          message: `asked for number ${expected.n}; the answer starts at ${at(item)}, which the client already has`,
          index: item.index,
        });
      } else if (item.n > expected.n && !misplacedAfter(item)) {
        problems.push({
          rule: 'stream.advance-no-skip',
          message: `asked for number ${expected.n}; the answer starts at ${at(item)}, skipping ${item.n - expected.n} with no discontinuity`,
          index: item.index,
        });
      }
    } else if (item.page !== previous.page) {
      if (!misplacedAfter(item)) {
        problems.push({
          rule: 'stream.page-change-discontinuity',
          message: `${at(previous)} is followed by ${at(item)} with no discontinuity between them`,
          index: item.index,
        });
      }
    } else if (item.n <= previous.n) {
      problems.push({
        rule: 'stream.contiguous-numbers',
        message: `${at(previous)} is followed by ${at(item)} in the same answer: numbers must go up by one`,
        index: item.index,
      });
    } else if (item.n > previous.n + 1 && !misplacedAfter(item)) {
      problems.push({
        rule: 'stream.discontinuity-before-gap',
        message: `${at(previous)} is followed by ${at(item)}: a gap of ${item.n - previous.n - 1} with no discontinuity before it`,
        index: item.index,
      });
    }
    previous = item;
    afterDiscontinuity = false;
    expected = { page: item.page, n: item.n + 1 };
  }
  return problems;
}

/** The cursor a client following the contract sends next, after this answer. */
export function advance(cursor: Cursor, elements: Element[]): Cursor {
  let next = cursor;
  for (const element of elements) {
    if (element.kind === 'item') next = { n: element.n + 1, page: element.page };
    // "Sequence number from which delivery continues" / "Page that applies from then on".
    if (element.kind === 'discontinuity') next = { n: element.next, page: element.page };
  }
  return next;
}
