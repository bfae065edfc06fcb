import { devCredentials, Publisher } from '../load/publisher.js';
import type { SwarmProcess } from '../load/swarm-process.js';
import { ServerProcess } from '../servers/server-process.js';
import { median } from '../stats.js';
import {
  ratioOf,
  runOrder,
  withSettings,
  type BenchContext,
  type Figure,
  type FigureResult,
  type Row,
} from './figure.js';

// Fan-out and publish acknowledgement with N waiting subscribers. The swarm parks N subscribers
// on one fresh topic, each re-polling after every delivery; once the server holds all N, the
// harness publishes one message and times (a) the 204 and (b) the last subscriber's delivery,
// both from the moment the POST was handed to the client. N = 0 gives the acknowledgement's
// floor. The subscribers wait on the topic that is published to: the publish must wake them all,
// which is the case where an acknowledgement that waits for the fan-out would show. They poll
// again only once all N have the message, so the next round of polls does not compete for the
// two CPUs with the fan-out being timed.

const iterationsPerRound = 7; // the first of each round is a warm-up and is not counted
const zeroSubscriberPublishes = 30;

interface Sample {
  ackMs: number;
  /** The same acknowledgement inside the server: request parsed to 204 written. */
  serverAckMs: number;
  lastDeliveryMs: number;
}

async function round(
  server: ServerProcess,
  swarm: SwarmProcess,
  subscribers: number,
  label: string,
): Promise<Sample[]> {
  const publisher = new Publisher(server.url, devCredentials);
  const topic = `fanout-${label}`;
  const alreadyInFlight = await server.inflight();
  const samples: Sample[] = [];
  try {
    if (subscribers > 0) {
      await swarm.park({
        url: server.url,
        cacheName: devCredentials.cacheName,
        topics: [topic],
        count: subscribers,
        headers: { authorization: devCredentials.apiKey },
        follow: true,
        repollAfter: subscribers,
      });
    }
    const iterations = subscribers > 0 ? iterationsPerRound : zeroSubscriberPublishes + 1;
    for (let i = 0; i < iterations; i++) {
      await server.waitInflight(alreadyInFlight + subscribers, 60_000);
      const text = `${topic}-${i}`;
      const ack = await publisher.publishOk(topic, text);
      const serverAckMs = (await server.lastPostMs()) ?? Number.NaN;
      let lastDeliveryMs = 0;
      if (subscribers > 0) {
        const delivery = await swarm.waitDelivered(text, subscribers, 60_000);
        if (!delivery.complete)
          throw new Error(`${server.kind}: only ${delivery.count} of ${subscribers} subscribers received ${text}`);
        lastDeliveryMs = delivery.lastAt - ack.sentAt;
      }
      if (i > 0) samples.push({ ackMs: ack.ackAt - ack.sentAt, serverAckMs, lastDeliveryMs });
    }
    const stats = await swarm.stats();
    if (stats.errors > 0) throw new Error(`${server.kind}: subscriber errors: ${stats.firstErrors.join('; ')}`);
  } finally {
    await publisher.close();
    await swarm.reset();
  }
  return samples;
}

export const fanout: Figure = {
  name: 'fanout',
  async run(context: BenchContext): Promise<FigureResult> {
    const baseline = await ServerProcess.start({ kind: 'b-ref' });
    const oursSpec = withSettings(context.ours, { longPollTimeoutMs: 0 });
    const ours = oursSpec === undefined ? undefined : await ServerProcess.start(oursSpec);
    const sizes = [0, 1_000, 5_000];
    const samples = new Map<string, Sample[]>();
    const key = (server: ServerProcess, subscribers: number): string => `${server.kind}@${subscribers}`;
    try {
      for (const server of runOrder(0, ours, baseline)) await server.timePosts();
      // Warm the publish path first: the first hundreds of publishes run cold code, and N = 0 would
      // otherwise be timed cold in round 1 and warm in round 2.
      for (const server of runOrder(0, ours, baseline)) {
        const publisher = new Publisher(server.url, devCredentials);
        for (let i = 0; i < 500; i++) await publisher.publishOk('fanout-warm-up', `warm-${i}`);
        await publisher.close();
      }
      // Rounds re-park every subscriber, the slow part: two rounds of three timed publishes each.
      for (let r = 0; r < Math.min(2, context.options.runs); r++) {
        for (const subscribers of sizes) {
          for (const server of runOrder(r, ours, baseline)) {
            const list = await round(server, context.swarm, subscribers, `${subscribers}-${r}`);
            samples.set(key(server, subscribers), [...(samples.get(key(server, subscribers)) ?? []), ...list]);
            context.log(
              `fan-out: ${server.kind} N=${subscribers} round ${r + 1}: ack ${median(list.map((s) => s.ackMs)).toFixed(2)} ms, last delivery ${median(list.map((s) => s.lastDeliveryMs)).toFixed(2)} ms`,
            );
          }
        }
      }
    } finally {
      await Promise.all(runOrder(0, ours, baseline).map((server) => server.stop()));
    }
    const pick = (server: ServerProcess | undefined, subscribers: number, value: keyof Sample): number | null => {
      const list = server === undefined ? undefined : samples.get(key(server, subscribers));
      return list === undefined ? null : median(list.map((sample) => sample[value]));
    };
    const rows: Row[] = [];
    for (const subscribers of [1_000, 5_000]) {
      const ratio = ratioOf(pick(ours, subscribers, 'lastDeliveryMs'), pick(baseline, subscribers, 'lastDeliveryMs'));
      rows.push({
        figure: `fan-out to ${subscribers.toLocaleString('en')}: publish to last delivery`,
        unit: 'ms',
        ours: pick(ours, subscribers, 'lastDeliveryMs'),
        baseline: pick(baseline, subscribers, 'lastDeliveryMs'),
        baselineName: 'B-ref',
        ratio,
        target: '≤ 1.5×',
        pass: ratio === null ? null : ratio <= 1.5,
      });
    }
    const growth = (server: ServerProcess | undefined): number | null =>
      ratioOf(pick(server, 5_000, 'lastDeliveryMs'), pick(server, 1_000, 'lastDeliveryMs'));
    const oursGrowth = growth(ours);
    rows.push({
      figure: 'fan-out growth, 5,000 vs 1,000 subscribers',
      unit: '×',
      ours: oursGrowth,
      baseline: growth(baseline),
      baselineName: 'B-ref',
      ratio: null,
      target: '≈ linear (≤ 6× for 5×)',
      pass: oursGrowth === null ? null : oursGrowth <= 6,
    });
    const ackRatio = ratioOf(pick(ours, 5_000, 'ackMs'), pick(ours, 0, 'ackMs'));
    rows.push({
      figure: 'publish ack, 5,000 waiting (baseline: ours at N=0)',
      unit: 'ms',
      ours: pick(ours, 5_000, 'ackMs'),
      baseline: pick(ours, 0, 'ackMs'),
      baselineName: 'ours, N=0',
      ratio: ackRatio,
      target: '≤ 1.2×',
      pass: ackRatio === null ? null : ackRatio <= 1.2,
      note: `B-ref: ${pick(baseline, 5_000, 'ackMs')?.toFixed(2)} ms at N=5,000 vs ${pick(baseline, 0, 'ackMs')?.toFixed(2)} ms at N=0`,
    });
    // The client's figure includes its wait for a CPU while the server and the subscribers' swarm
    // work through the fan-out (two CPUs here); the server's own figure does not.
    const serverAckRatio = ratioOf(pick(ours, 5_000, 'serverAckMs'), pick(ours, 0, 'serverAckMs'));
    rows.push({
      figure: 'publish ack inside the server (request parsed → 204 written), 5,000 waiting vs N=0',
      unit: 'ms',
      ours: pick(ours, 5_000, 'serverAckMs'),
      baseline: pick(ours, 0, 'serverAckMs'),
      baselineName: 'ours, N=0',
      ratio: serverAckRatio,
      target: '≤ 1.2×',
      pass: serverAckRatio === null ? null : serverAckRatio <= 1.2,
      note: `B-ref, inside the server: ${pick(baseline, 5_000, 'serverAckMs')?.toFixed(3)} ms at N=5,000 vs ${pick(baseline, 0, 'serverAckMs')?.toFixed(3)} ms at N=0`,
    });
    return { rows, details: { iterationsPerRound, samples: Object.fromEntries(samples) } };
  },
};
