import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planRead, waitingCursor, type Cursor, type TopicPosition } from '../../emulator/topics/read-plan.js';

const P = 1_700_000_000;
const at = (oldest: number, next: number, page = P): TopicPosition => ({ page, oldest, next });
const cursor = (sequenceNumber: number, sequencePage = P): Cursor => ({ sequenceNumber, sequencePage });

describe('planRead: what a subscribe gets at a cursor', () => {
  it('a first request begins at the latest retained message', () => {
    expect(planRead(at(1, 4), cursor(0, 0), 'latest', 100)).toEqual({ kind: 'deliver', from: 3, count: 1 });
  });
  it('a first request waits when the topic has nothing retained', () => {
    expect(planRead(at(1, 1), cursor(0, 0), 'latest', 100)).toEqual({ kind: 'wait' });
  });
  it('a first request with the current page behaves like page 0', () => {
    expect(planRead(at(1, 4), cursor(0), 'latest', 100)).toEqual({ kind: 'deliver', from: 3, count: 1 });
  });
  it("'oldest' replays the retained messages, 'next' waits for the next one", () => {
    expect(planRead(at(2, 6), cursor(0, 0), 'oldest', 100)).toEqual({ kind: 'deliver', from: 2, count: 4 });
    expect(planRead(at(2, 6), cursor(0, 0), 'next', 100)).toEqual({ kind: 'wait' });
  });
  it('a resume within the retained range starts at the requested number, capped by the batch', () => {
    expect(planRead(at(1, 4), cursor(2), 'latest', 100)).toEqual({ kind: 'deliver', from: 2, count: 2 });
    expect(planRead(at(1, 500), cursor(10), 'latest', 100)).toEqual({ kind: 'deliver', from: 10, count: 100 });
  });
  it('page 0 with a number means the current page', () => {
    expect(planRead(at(1, 4), cursor(2, 0), 'latest', 100)).toEqual({ kind: 'deliver', from: 2, count: 2 });
  });
  it('a resume at the next number waits', () => {
    expect(planRead(at(1, 4), cursor(4), 'latest', 100)).toEqual({ kind: 'wait' });
  });
  it('a resume older than the oldest retained starts with a same-page discontinuity', () => {
    expect(planRead(at(101, 104), cursor(50), 'latest', 100)).toEqual({
      kind: 'deliver',
      from: 101,
      count: 3,
      discontinuity: { last_topic_sequence: 49, new_topic_sequence: 101, new_sequence_page: P },
    });
  });
  it('a resume ahead of the stream answers a discontinuity alone, pointing at the next number', () => {
    expect(planRead(at(1, 4), cursor(9), 'latest', 100)).toEqual({
      kind: 'deliver',
      from: 4,
      count: 0,
      discontinuity: { last_topic_sequence: 8, new_topic_sequence: 4, new_sequence_page: P },
    });
  });
  it('a stale page answers a discontinuity to the new page, then its messages from the oldest', () => {
    expect(planRead(at(1, 3, P + 7), cursor(300, 5435435), 'latest', 100)).toEqual({
      kind: 'deliver',
      from: 1,
      count: 2,
      discontinuity: { last_topic_sequence: 299, new_topic_sequence: 1, new_sequence_page: P + 7 },
    });
  });
  it('a stale page on an empty new page answers the discontinuity alone', () => {
    expect(planRead(at(1, 1, P + 7), cursor(5), 'latest', 100)).toEqual({
      kind: 'deliver',
      from: 1,
      count: 0,
      discontinuity: { last_topic_sequence: 4, new_topic_sequence: 1, new_sequence_page: P + 7 },
    });
  });

  it('a first request that waits, waits for the next number on the current page; a resume keeps its cursor', () => {
    expect(waitingCursor(at(1, 4), cursor(0, 0))).toEqual({ sequenceNumber: 4, sequencePage: 0 });
    expect(waitingCursor(at(1, 1), cursor(0))).toEqual({ sequenceNumber: 1, sequencePage: 0 });
    expect(waitingCursor(at(1, 4), cursor(4))).toEqual(cursor(4));
  });

  const position = fc
    .record({ oldest: fc.integer({ min: 1, max: 1000 }), retained: fc.integer({ min: 0, max: 300 }), page: fc.integer({ min: 1, max: 5 }) })
    .map(({ oldest, retained, page }) => at(oldest, oldest + retained, page));
  const anyCursor = fc.record({ sequenceNumber: fc.integer({ min: 0, max: 1400 }), sequencePage: fc.integer({ min: 0, max: 6 }) });
  const policy = fc.constantFrom('latest' as const, 'next' as const, 'oldest' as const);

  it('never delivers what is not retained, never more than the batch, and never loses a message', () => {
    fc.assert(
      fc.property(position, anyCursor, policy, fc.integer({ min: 1, max: 50 }), (pos, c, first, maxBatch) => {
        const plan = planRead(pos, c, first, maxBatch);
        if (plan.kind === 'wait') {
          // Waiting is only right when nothing the client lacks is retained.
          const samePage = c.sequencePage === 0 || c.sequencePage === pos.page;
          expect(samePage).toBe(true);
          expect(c.sequenceNumber === pos.next || c.sequenceNumber === 0).toBe(true);
          return;
        }
        expect(plan.count).toBeGreaterThanOrEqual(0);
        expect(plan.count).toBeLessThanOrEqual(maxBatch);
        expect(plan.from).toBeGreaterThanOrEqual(pos.oldest);
        expect(plan.from + plan.count).toBeLessThanOrEqual(pos.next);
        if (plan.discontinuity) {
          expect(plan.discontinuity.new_sequence_page).toBe(pos.page);
          expect(plan.discontinuity.new_topic_sequence).toBe(plan.from);
          expect(plan.discontinuity.last_topic_sequence).toBe(Math.max(0, c.sequenceNumber - 1));
        } else {
          // Without a discontinuity, delivery continues exactly where the client is (or is a first request).
          expect(plan.count).toBeGreaterThan(0);
          if (c.sequenceNumber !== 0) expect(plan.from).toBe(c.sequenceNumber);
        }
      }),
    );
  });
});
