import { Pool } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.js';
import { reportFigure } from '../figures.js';
import { CACHE, newPublisher, publish, subscribe } from './clients.js';
import { runLoad, topicStates, type LoadResult, type LoadShape } from './load.js';
import { deliveryFaults } from './shapes.js';
import { fellBehindProblems } from './verify.js';

// "Nothing lost under load", defined once for `npm test` (delivery.test.ts) and the stress
// run (test/stress/delivery.stress.test.ts) with their own sizes.

export interface DeliveryBudgets {
  label: string;
  keepUp: LoadShape;
  faults: LoadShape;
  slow: { messages: number; retention: number; holds: number };
}

const totals = (result: LoadResult) => {
  const sum = (
    pick: (t: { throttled: number; dropped: number }) => number,
    list: { throttled: number; dropped: number }[],
  ) => list.reduce((n, x) => n + pick(x), 0);
  return {
    acked: result.publishers.reduce((n, p) => n + [...p.acked.values()].reduce((m, a) => m + a.length, 0), 0),
    delivered: result.subscribers.reduce((n, s) => n + s.events.filter((e) => e.kind === 'item').length, 0),
    polls: result.subscribers.reduce((n, s) => n + s.polls, 0),
    publisherThrottled: sum((x) => x.throttled, result.publishers),
    publisherDropped: sum((x) => x.dropped, result.publishers),
    subscriberThrottled: sum((x) => x.throttled, result.subscribers),
    subscriberDropped: sum((x) => x.dropped, result.subscribers),
  };
};

export function defineDeliverySuite(budgets: DeliveryBudgets): void {
  let emulator: RunningEmulator | undefined;
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
  });

  describe(`nothing lost under load (${budgets.label})`, () => {
    it('every acknowledged message reaches every subscriber that keeps up: once, in order, numbered 1, 2, 3, ...', async () => {
      const shape = budgets.keepUp;
      // Retention covers a whole topic: every subscriber is within the window by construction.
      emulator = await startEmulator({
        port: 0,
        logLevel: 'silent',
        retention: shape.messages,
        longPollTimeoutMs: 500,
      });
      const result = await runLoad(emulator.url, emulator.apiKey, shape, 'load');
      const t = totals(result);
      reportFigure(
        'delivery',
        `${shape.publishers} publishers, ${shape.subscribers * shape.topics} subscribers on ${shape.topics} topics, ${t.acked} messages acknowledged, ${t.delivered} deliveries in ${(result.elapsedMs / 1000).toFixed(1)} s, ${result.problems.length} problems`,
        { ...shape, ...t, elapsedMs: result.elapsedMs, problems: result.problems.length },
      );
      expect(result.problems).toEqual([]);
      if (shape.publishForMs === undefined) expect(t.acked).toBe(shape.messages);
      else expect(t.acked).toBeGreaterThan(0);
      expect(t.delivered).toBe(t.acked * shape.subscribers);
    });

    it("the same from each subscriber's point of view under page changes, 429s and dropped connections", async () => {
      const shape = budgets.faults;
      emulator = await startEmulator({
        port: 0,
        logLevel: 'silent',
        retention: shape.messages,
        longPollTimeoutMs: 500,
      });
      const seed = Number(process.env.RELIABILITY_SEED || 7);
      for (const rule of deliveryFaults(seed)) {
        const response = await fetch(`${emulator.url}/_emulator/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(rule),
        });
        expect(response.status, await response.clone().text()).toBe(201);
      }
      const result = await runLoad(emulator.url, emulator.apiKey, shape, 'faults');
      const t = totals(result);
      const pageCount = [...result.pages.values()].reduce((n, p) => n + p.length, 0);
      reportFigure(
        'delivery-faults',
        `${shape.publishers} publishers, ${shape.subscribers * shape.topics} subscribers, ${t.acked} messages, ${pageCount} pages; ` +
          `subscribers met ${t.subscriberThrottled} 429s and ${t.subscriberDropped} dropped connections, publishers ${t.publisherThrottled} and ${t.publisherDropped}; ${result.problems.length} problems`,
        { ...shape, seed, ...t, pages: pageCount, elapsedMs: result.elapsedMs, problems: result.problems.length },
      );
      expect(result.problems).toEqual([]);
      expect(t.acked).toBe(shape.messages);
      // The faults did happen, to both sides.
      expect(t.subscriberThrottled).toBeGreaterThan(0);
      expect(t.subscriberDropped).toBeGreaterThan(0);
      expect(t.publisherThrottled + t.publisherDropped).toBeGreaterThan(0);
      for (const pages of result.pages.values()) expect(pages).toHaveLength((shape.pageChanges ?? 0) + 1);
    });

    it('a subscriber that falls out of the retention window gets a discontinuity naming exactly what it missed', async () => {
      const { messages, retention, holds } = budgets.slow;
      emulator = await startEmulator({ port: 0, logLevel: 'silent', retention, longPollTimeoutMs: 500 });
      const pool = new Pool(emulator.url, { connections: 8 });
      const topic = 'slow';
      const slow = subscribe(pool, emulator.apiKey, 'slow', topic);
      const publisher = newPublisher(0, [topic]);
      const oldest = async () => (await topicStates(emulator!.url)).get(topic)?.firstSequenceNumber ?? 0;
      // `holds` times during the run, the subscriber stops reading until the topic's oldest
      // retained message is well past its cursor, then reads on.
      const step = Math.ceil(messages / (holds + 1));
      await publish(pool, emulator.apiKey, publisher, [topic], messages, async (k) => {
        if (k === 0 || k % step !== 0) return;
        const release = slow.hold();
        while ((await oldest()) <= slow.cursor.seq + retention / 2) {
          await publish(pool, emulator!.apiKey, publisher, [topic], retention / 2);
        }
        release();
      });
      const acked = publisher.acked.get(topic)!;
      slow.stopAt({ page: slow.events.find((e) => e.kind === 'item')!.page, seq: acked.length + 1 });
      await slow.finished;
      await pool.close();
      // One publisher: the message numbered n is its (n-1)th, whatever the subscriber saw.
      const reference = new Map(acked.map((text, i) => [i + 1, text]));
      const { problems, skipped, discontinuities } = fellBehindProblems(slow.events, reference, acked.length);
      const delivered = slow.events.filter((e) => e.kind === 'item').length;
      reportFigure(
        'delivery-slow',
        `${acked.length} messages, retention ${retention}: the slow subscriber got ${delivered}, and ${discontinuities} discontinuities naming the ${skipped} it missed; ${problems.length} problems`,
        {
          messages: acked.length,
          retention,
          delivered,
          skipped,
          discontinuities,
          problems: problems.length,
        },
      );
      expect(problems).toEqual([]);
      expect(discontinuities).toBe(holds);
      expect(delivered + skipped).toBe(acked.length);
    });
  });
}

export { CACHE };
