import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../conformance/history/checks/index.js';
import type { HistoryElement, HistoryEvent } from '../../conformance/history/events.js';
import { indexHistory } from '../../conformance/history/model.js';
import { historyReport, renderJunit, renderText } from '../../conformance/history/report.js';

// Each history check against a small history written by hand: a correct one (nothing found) and
// one broken the way the check exists to see. Times are milliseconds; a publish is sent at t and
// answered at t + 1.

function history() {
  const events: HistoryEvent[] = [
    {
      type: 'run',
      version: 1,
      baseUrls: ['http://127.0.0.1:1'],
      cache: 'c',
      topic: 't',
      publishers: 1,
      subscribers: 1,
      startedAt: 0,
      strict: true,
    },
  ];
  return {
    events,
    publish(payload: string, at: number, status = 204) {
      events.push({
        type: 'publish',
        publisher: payload.split('/')[0]!,
        target: 0,
        payload,
        sentAt: at,
        answeredAt: at + 1,
        status,
      });
      return this;
    },
    read(
      subscriber: string,
      cursor: [number, number],
      at: number,
      elements: HistoryElement[],
      status: number | null = 200,
    ) {
      events.push({
        type: 'read',
        subscriber,
        target: 0,
        cursor: { n: cursor[0], page: cursor[1] },
        sentAt: at,
        answeredAt: at + 1,
        status,
        elements,
      });
      return this;
    },
  };
}

const item = (n: number, payload: string, page = 1): HistoryElement => ({ kind: 'item', n, page, payload });
const gap = (last: number, next: number, page = 1): HistoryElement => ({ kind: 'discontinuity', last, next, page });

function found(events: HistoryEvent[], strict = true): Record<string, number> {
  const results = checkHistory(indexHistory(events), strict);
  return Object.fromEntries(
    results.filter((r) => r.anomalies.length > 0).map((r) => [r.check.kind, r.anomalies.length]),
  );
}

/** p/1..p/3 published 10 ms apart, from 10. */
const published = () => history().publish('p/1', 10).publish('p/2', 20).publish('p/3', 30);

describe('history checks', () => {
  it('find nothing in a correct history', () => {
    const h = published()
      .read('s1', [0, 0], 5, [item(1, 'p/1')])
      .read('s1', [2, 1], 15, [item(2, 'p/2'), item(3, 'p/3')]);
    expect(found(h.events)).toEqual({});
  });

  it('lost: an acknowledged publish missing between two items a subscriber read', () => {
    const h = published().read('s1', [0, 0], 5, [item(1, 'p/1'), item(2, 'p/3')]);
    expect(found(h.events)).toEqual({ lost: 1 });
  });

  it('lost is not claimed when no subscriber read past the publish, or a discontinuity lies between', () => {
    const notPast = published().read('s1', [0, 0], 5, [item(1, 'p/1'), item(2, 'p/2')]);
    expect(found(notPast.events)).toEqual({});
    const announced = published().read('s1', [0, 0], 5, [item(1, 'p/1'), gap(1, 3), item(3, 'p/3')]);
    expect(found(announced.events)).toEqual({});
  });

  it('lost is a warning for a live endpoint (best-effort delivery), a failure with --strict', () => {
    const h = published().read('s1', [0, 0], 5, [item(1, 'p/1'), item(2, 'p/3')]);
    const index = indexHistory(h.events);
    expect(historyReport(index.run, false, h.events.length, checkHistory(index, false)).exitCode).toBe(0);
    const strict = historyReport(index.run, true, h.events.length, checkHistory(index, true));
    expect(strict.exitCode).toBe(1);
    expect(renderText(strict)).toMatch(/FAIL lost +1/);
    expect(renderText(strict)).toContain(
      'curl -sS --max-time 10 -H "Authorization: $TOKEN" \'http://127.0.0.1:1/topics/c/t?sequence_number=0&sequence_page=0\'',
    );
    expect(renderJunit(strict)).toContain('<failure message="1 lost"');
  });

  it('duplicated: one payload under two numbers, or twice to one subscriber', () => {
    const twoNumbers = published().read('s1', [0, 0], 5, [
      item(1, 'p/1'),
      item(2, 'p/1'),
      item(3, 'p/2'),
      item(4, 'p/3'),
    ]);
    expect(found(twoNumbers.events)).toEqual({ duplicated: 1 });
    const twice = published()
      .read('s1', [0, 0], 5, [item(1, 'p/1')])
      .read('s1', [2, 1], 15, [item(1, 'p/1'), item(2, 'p/2'), item(3, 'p/3')]);
    expect(found(twice.events)).toMatchObject({ duplicated: 1 });
  });

  it("reordered: a publisher's awaited publish numbered before its previous one", () => {
    const h = published().read('s1', [0, 0], 5, [item(1, 'p/2'), item(2, 'p/1'), item(3, 'p/3')]);
    expect(found(h.events)).toEqual({ reordered: 1 });
  });

  it('unannounced-gap: a number skipped without a discontinuity', () => {
    const h = published().read('s1', [0, 0], 5, [item(1, 'p/1'), item(2, 'p/2'), item(4, 'p/3')]);
    expect(found(h.events)).toEqual({ 'unannounced-gap': 1 });
  });

  it('nonmonotonic: a number at or below one the subscriber already had', () => {
    const h = published()
      .read('s1', [0, 0], 5, [item(1, 'p/1'), item(2, 'p/2')])
      .read('s1', [3, 1], 25, [item(2, 'p/2'), item(3, 'p/3')]);
    expect(found(h.events)).toMatchObject({ nonmonotonic: 1 });
  });

  it('stale: a resumed read answered empty though a publish at its cursor was acknowledged before it asked', () => {
    const h = published()
      .read('s1', [0, 0], 5, [item(1, 'p/1')])
      .read('s1', [2, 1], 40, [])
      .read('s2', [0, 0], 5, [item(1, 'p/1'), item(2, 'p/2'), item(3, 'p/3')]);
    expect(found(h.events)).toEqual({ stale: 1 });
    // Asked before p/2 was acknowledged: nothing was owed yet.
    const early = published()
      .read('s1', [0, 0], 5, [item(1, 'p/1')])
      .read('s1', [2, 1], 15, [])
      .read('s2', [0, 0], 5, [item(1, 'p/1'), item(2, 'p/2'), item(3, 'p/3')]);
    expect(found(early.events)).toEqual({});
  });

  it('wrong-discontinuity: the next item is not where the discontinuity said delivery continues', () => {
    const h = published().read('s1', [0, 0], 5, [item(1, 'p/1'), gap(1, 3), item(2, 'p/2'), item(3, 'p/3')]);
    expect(found(h.events)).toMatchObject({ 'wrong-discontinuity': 1 });
    const newPage = published().read('s1', [0, 0], 5, [
      item(1, 'p/1'),
      gap(1, 1, 2),
      item(1, 'p/2', 2),
      item(2, 'p/3', 2),
    ]);
    expect(found(newPage.events)).toEqual({});
  });
});
