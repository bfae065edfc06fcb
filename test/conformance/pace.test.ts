import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../conformance/exchange.js';
import { AT_ONCE_FLOOR_MS, NUDGE_FLOOR_MS, NUDGE_LEAST_MS, Pace, SETTLE_FLOOR_MS } from '../../conformance/pace.js';

let nextId = 1;
function exchange(operation: Exchange['operation'], durationMs: number, extra: Partial<Exchange> = {}): Exchange {
  return {
    id: nextId++,
    rule: 'test',
    operation,
    method: operation === 'publish' ? 'POST' : 'GET',
    url: 'http://127.0.0.1/',
    requestHeaders: {},
    startedAt: 0,
    durationMs,
    status: operation === 'publish' ? 204 : 200,
    ...extra,
  };
}

/** An exchange that got no answer (the suite's own abort, a network error). */
function unanswered(operation: Exchange['operation'], error: string): Exchange {
  const made = exchange(operation, 100, { error });
  delete made.status;
  return made;
}

const empty = (ms: number): Exchange => exchange('subscribe', ms, { json: { items: [] } });

describe('Pace', () => {
  it('waits the floors on a quiet loopback', () => {
    const pace = new Pace();
    for (let i = 0; i < 10; i += 1) pace.observe(exchange('publish', 1));
    expect(pace.nudgeEveryMs).toBe(NUDGE_FLOOR_MS);
    expect(pace.settleMs).toBe(SETTLE_FLOOR_MS);
    expect(pace.atOnceMs).toBe(AT_ONCE_FLOOR_MS);
  });

  it('grows every wait with the round trips of a slow link', () => {
    const pace = new Pace();
    for (let i = 0; i < 10; i += 1) pace.observe(exchange('publish', 400));
    expect(pace.roundTripMs).toBe(400);
    expect(pace.nudgeEveryMs).toBe(1600);
    expect(pace.settleMs).toBe(8000);
    expect(pace.atOnceMs).toBe(4000);
  });

  it('nudges within a third of the long-poll timeout the endpoint answered empty after', () => {
    const pace = new Pace();
    for (let i = 0; i < 10; i += 1) pace.observe(exchange('publish', 400));
    expect(pace.longPollTimeoutMs).toBe(Number.POSITIVE_INFINITY);
    pace.observe(empty(1500));
    expect(pace.longPollTimeoutMs).toBe(1500);
    expect(pace.nudgeEveryMs).toBe(500);
    pace.observe(empty(3000));
    expect(pace.longPollTimeoutMs).toBe(1500);
  });

  it('never nudges more often than its least interval', () => {
    const pace = new Pace();
    pace.observe(empty(30));
    expect(pace.nudgeEveryMs).toBe(NUDGE_LEAST_MS);
  });

  it('learns nothing from answers that carry items, fail, or were aborted by the suite', () => {
    const pace = new Pace();
    pace.observe(exchange('subscribe', 100, { json: { items: [{ item: {} }] } }));
    pace.observe(exchange('subscribe', 100, { status: 429, json: { items: [] } }));
    pace.observe(unanswered('subscribe', 'timeout'));
    pace.observe(exchange('subscribe', 100, { json: 'not an answer' }));
    pace.observe(unanswered('publish', 'ECONNRESET'));
    expect(pace.longPollTimeoutMs).toBe(Number.POSITIVE_INFINITY);
    expect(pace.roundTripMs).toBe(0);
  });
});
