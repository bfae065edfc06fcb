import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import type { ExchangeFacts } from '../../emulator/exchange.js';
import { EmulatorEvents } from '../../emulator/events.js';
import { exposition } from '../../emulator/metrics/exposition.js';
import { EmulatorMetrics } from '../../emulator/metrics/metrics.js';
import { MetricsRecorder } from '../../emulator/metrics/recorder.js';
import { CACHE, clientOf, itemsOf, numbersOf, publishMany, start, waitForWaiting } from '../control/helpers.js';

// GET /_emulator/metrics: the Prometheus text format, counting what clients did.

let emulator: RunningEmulator;
let client: ReturnType<typeof clientOf>;
beforeEach(async () => {
  emulator = await start();
  client = clientOf(emulator);
});
afterEach(() => emulator.close());

async function scrape(): Promise<{ text: string; value: (series: string) => number | undefined }> {
  const response = await client.control('GET', '/metrics');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return { text, value: (series) => values.get(series) };
}

describe('GET /_emulator/metrics', () => {
  it('counts requests by operation and status, publishes, deliveries, discontinuities and faults fired', async () => {
    await publishMany(emulator, 't', 3);
    expect(numbersOf(await itemsOf(await client.subscribe('t', { seq: 1 })))).toEqual([1, 2, 3]);
    emulator.addFault({ operation: 'publish', status: 500, count: 1 });
    expect((await client.publish('t')).status).toBe(500);
    const page = emulator.state().topics[0]!.page;
    emulator.resetTopic(CACHE, 't');
    const newPage = emulator.state().topics[0]!.page;
    await publishMany(emulator, 't', 1);
    expect(numbersOf(await itemsOf(await client.subscribe('t', { seq: 4, page })))).toEqual([`d1@${newPage}`, 1]);
    expect((await client.control('GET', '/nowhere')).status).toBe(404);

    const { value } = await scrape();
    expect(value('topics_emulator_requests_total{plane="service",operation="publish",status="204"}')).toBe(4);
    expect(value('topics_emulator_requests_total{plane="service",operation="publish",status="500"}')).toBe(1);
    expect(value('topics_emulator_requests_total{plane="service",operation="subscribe",status="200"}')).toBe(2);
    expect(value('topics_emulator_requests_total{plane="control",operation="none",status="404"}')).toBe(1);
    expect(value('topics_emulator_publishes_total')).toBe(4);
    expect(value('topics_emulator_deliveries_total')).toBe(4);
    expect(value('topics_emulator_discontinuities_total')).toBe(1);
    expect(value('topics_emulator_faults_fired_total')).toBe(1);
    expect(value('topics_emulator_topics')).toBe(1);
    expect(value('topics_emulator_retained_messages')).toBe(1);
  });

  it('shows waiting long-polls as a gauge and the wake-up latency of each woken subscriber', async () => {
    const waiting = [client.subscribe('t'), client.subscribe('t')];
    await waitForWaiting(emulator, 2);
    expect((await scrape()).value('topics_emulator_waiting_subscribers')).toBe(2);
    await client.publish('t', 'wake');
    for (const response of waiting) expect(numbersOf(await itemsOf(await response))).toEqual([1]);
    const { value } = await scrape();
    expect(value('topics_emulator_waiting_subscribers')).toBe(0);
    expect(value('topics_emulator_wake_latency_seconds_count')).toBe(2);
    expect(value('topics_emulator_wake_latency_seconds_bucket{le="1"}')).toBe(2);
    expect(value('topics_emulator_wake_latency_seconds_sum')).toBeGreaterThan(0);
  });

  it('includes the process metrics, named with the same prefix', async () => {
    const { text, value } = await scrape();
    expect(value('topics_emulator_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).toMatch(/^# TYPE topics_emulator_nodejs_eventloop_lag_seconds gauge$/m);
  });

  it('needs the admin key when one is configured', async () => {
    const guarded = await start({ adminKey: 'metrics-admin-key' });
    try {
      const url = `${guarded.url}/_emulator/metrics`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { 'x-emulator-admin-key': 'metrics-admin-key' } })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

describe('the wake-up latency histogram', () => {
  it('is cumulative per bucket; a latency past the last bound counts only in +Inf, _sum and _count', async () => {
    const recorder = new MetricsRecorder();
    for (const seconds of [0.00005, 0.0001, 0.003, 0.003, 2]) recorder.woke(seconds);
    const { text } = await exposition({ recorder, store: emulator.context.store, waiting: emulator.context.waiting });
    const line = (series: string) => text.split('\n').find((l) => l.startsWith(`${series} `));
    const name = 'topics_emulator_wake_latency_seconds';
    expect(line(`${name}_bucket{le="0.0001"}`)).toBe(`${name}_bucket{le="0.0001"} 2`);
    expect(line(`${name}_bucket{le="0.0025"}`)).toBe(`${name}_bucket{le="0.0025"} 2`);
    expect(line(`${name}_bucket{le="0.005"}`)).toBe(`${name}_bucket{le="0.005"} 4`);
    expect(line(`${name}_bucket{le="1"}`)).toBe(`${name}_bucket{le="1"} 4`);
    expect(line(`${name}_bucket{le="+Inf"}`)).toBe(`${name}_bucket{le="+Inf"} 5`);
    expect(line(`${name}_count`)).toBe(`${name}_count 5`);
    expect(Number(line(`${name}_sum`)!.split(' ')[1])).toBeCloseTo(2.00615, 6);
  });
});

describe('the store metrics', () => {
  it('are absent with the in-memory store (only a shared store has round trips and a connection)', async () => {
    const { text } = await scrape();
    expect(text).toMatch(/^topics_emulator_wake_latency_seconds_count 0$/m);
    expect(text).not.toMatch(/store_up|store_round_trip/);
  });
});

describe('counting from the event stream', () => {
  // Metrics of their own, counting a stream of their own: `record` emits one exchange record.
  function counting() {
    const events = new EmulatorEvents();
    const metrics = new EmulatorMetrics(emulator.context);
    const stop = metrics.countExchanges(events);
    const record = (facts: Partial<ExchangeFacts>) =>
      events.emit({
        kind: 'request',
        at: 0,
        record: {
          plane: 'service',
          operation: 'subscribe',
          status: 200,
          items: [],
          discontinuity: null,
          decidedBy: null,
          ...facts,
        } as ExchangeFacts,
      });
    return { metrics, stop, record };
  }

  it('counts each answered exchange record once; a dropped request (no status) is not counted', async () => {
    const { metrics, stop, record } = counting();
    record({ items: [4, 5, 6], discontinuity: { lastTopicSequence: 3, newTopicSequence: 4, newSequencePage: 9 } });
    record({ operation: 'publish', status: 204 });
    record({ operation: 'publish', status: null, dropped: true });
    stop();
    record({ operation: 'publish', status: 204 });
    const { text } = await metrics.scrape();
    expect(text).toContain('topics_emulator_requests_total{plane="service",operation="subscribe",status="200"} 1');
    expect(text).toContain('topics_emulator_requests_total{plane="service",operation="publish",status="204"} 1');
    expect(text).toMatch(/^topics_emulator_publishes_total 1$/m);
    expect(text).toMatch(/^topics_emulator_deliveries_total 3$/m);
    expect(text).toMatch(/^topics_emulator_discontinuities_total 1$/m);
  });

  it('counts faults fired from what decided each record: a fault rule or chaos, dropped or not; not a limit', async () => {
    const { metrics, stop, record } = counting();
    record({ operation: 'publish', status: 500, decidedBy: { kind: 'fault', ruleId: 'f1' } });
    record({ operation: 'publish', status: null, dropped: true, decidedBy: { kind: 'chaos' } });
    record({ operation: 'publish', status: 429, decidedBy: { kind: 'limit', limit: 'operations' } });
    record({});
    stop();
    const { text } = await metrics.scrape();
    expect(text).toMatch(/^topics_emulator_faults_fired_total 2$/m);
    expect(text).toContain('topics_emulator_requests_total{plane="service",operation="publish",status="429"} 1');
  });
});

describe('MetricsRecorder', () => {
  it('counts each plane, operation and status apart, however they interleave', () => {
    const recorder = new MetricsRecorder();
    const answer = (plane: 'service' | 'control', operation: string | null, status: number) =>
      recorder.answered({ plane, operation, status, items: [], discontinuity: null });
    const sequence: [plane: 'service' | 'control', operation: string | null, status: number][] = [
      ['service', 'publish', 204],
      ['service', 'publish', 204],
      ['service', 'publish', 400],
      ['service', 'publish', 204],
      ['service', 'subscribe', 204],
      ['control', 'getState', 200],
      ['service', null, 404],
      ['control', null, 404],
      ['service', 'publish', 204],
    ];
    for (const [plane, operation, status] of sequence) answer(plane, operation, status);
    const counts = Object.fromEntries(
      recorder.requests.map(({ labels, count }) => [`${labels.plane} ${labels.operation} ${labels.status}`, count]),
    );
    expect(counts).toEqual({
      'service publish 204': 4,
      'service publish 400': 1,
      'service subscribe 204': 1,
      'control getState 200': 1,
      'service none 404': 1,
      'control none 404': 1,
    });
    expect(recorder.publishes).toBe(4);
  });
});
