import { Client } from 'undici';
import { nowMs, pause } from '../clock.js';
import { devCredentials, Publisher } from '../load/publisher.js';
import { runSubscriber } from '../load/subscriber.js';
import { ServerProcess } from '../servers/server-process.js';
import { median, percentile } from '../stats.js';
import { ratioOf, runOrder, type BenchContext, type Figure, type FigureResult } from './figure.js';

// Publish-to-delivery latency: one subscriber long-polls a topic while messages are published at
// a fixed rate; each message's latency runs from handing the POST to the client until the
// subscriber has read it. Against B-ref, the simplest server that can wake a waiting request.
// Fixed rate means: a message is due every `intervalMs`, and is published when due, once the
// server holds the subscriber's next poll (asked over IPC, which costs both servers the same).
// One at a time (the Redis figure) adds: and once the previous message was delivered, so that no
// message queues behind another, in the harness or in the servers.

export const intervalMs = 2;
export const warmUpMessages = 200;
export const messagesPerRun = 1_000;
const deliveryGraceMs = 2_000;

export interface Sample {
  p50: number;
  p99: number;
  lost: number;
  errors: string[];
}

/** How messages are paced: one due every `intervalMs`; with `oneAtATime`, never before the previous one is delivered. */
export interface Pacing {
  intervalMs: number;
  oneAtATime: boolean;
}

/** The subscriber long-polls `server`; messages are published through `publishTo` (another replica, or the same server). */
export async function measureLatency(
  server: ServerProcess,
  topicName: string,
  count: number,
  publishTo: ServerProcess = server,
  pacing: Pacing = { intervalMs, oneAtATime: false },
): Promise<Sample> {
  // Subscribers of earlier runs were cut off while waiting; the server still counts them.
  const alreadyInFlight = await server.inflight();
  const received = new Map<string, number>();
  let awaited: { text: string; delivered: () => void } | undefined;
  const errors: string[] = [];
  let closing = false;
  const client = new Client(server.url, { pipelining: 1, headersTimeout: 0, bodyTimeout: 0 });
  const publisher = new Publisher(publishTo.url, devCredentials);
  const subscribed = runSubscriber(client, {
    cacheName: devCredentials.cacheName,
    topicName,
    headers: { authorization: devCredentials.apiKey },
    follow: true,
    isClosing: () => closing,
    onTexts: (texts, at) => {
      for (const text of texts) received.set(text, at);
      if (awaited && received.has(awaited.text)) awaited.delivered();
    },
    onError: (message) => errors.push(message),
  });
  const latencies: number[] = [];
  try {
    await server.waitInflight(alreadyInFlight + 1, 10_000);
    const sent = new Map<string, number>();
    const start = nowMs();
    let previous: string | undefined;
    for (let i = 0; i < count; i++) {
      const wait = start + i * pacing.intervalMs - nowMs();
      if (wait >= 1) await pause(wait);
      if (pacing.oneAtATime && previous !== undefined && !received.has(previous)) {
        const text = previous;
        // Bounded: a message not delivered within the grace is counted lost, and the next one goes.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, deliveryGraceMs);
          awaited = { text, delivered: () => (clearTimeout(timer), resolve()) };
        });
        awaited = undefined;
      }
      // The figure is for a *waiting* subscriber: B-ref keeps nothing for a subscriber that is
      // between two polls, so publish only once the server holds the next poll.
      await server.waitInflight(alreadyInFlight + 1, 10_000);
      const text = `${topicName}-${i}`;
      const ack = await publisher.publishOk(topicName, text);
      sent.set(text, ack.sentAt);
      previous = text;
    }
    const deadline = nowMs() + deliveryGraceMs;
    while (received.size < count && nowMs() < deadline && errors.length === 0) await pause(5);
    for (const [text, sentAt] of sent) {
      const at = received.get(text);
      if (at !== undefined) latencies.push(at - sentAt);
    }
  } finally {
    closing = true;
    await client.destroy();
    await publisher.close();
    await subscribed;
  }
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), lost: count - latencies.length, errors };
}

export const latency: Figure = {
  name: 'latency',
  async run(context: BenchContext): Promise<FigureResult> {
    const baseline = await ServerProcess.start({ kind: 'b-ref' });
    const ours = context.ours === undefined ? undefined : await ServerProcess.start(context.ours);
    const samples = new Map<ServerProcess, Sample[]>();
    try {
      for (const server of runOrder(0, ours, baseline)) {
        context.log(`latency: warm-up ${server.kind}`);
        await measureLatency(server, `latency-warm-up`, warmUpMessages);
        samples.set(server, []);
      }
      for (let i = 0; i < context.options.runs; i++) {
        for (const server of runOrder(i, ours, baseline)) {
          const sample = await measureLatency(server, `latency-${i}`, messagesPerRun);
          context.log(
            `latency: ${server.kind} run ${i + 1}: p50 ${sample.p50.toFixed(3)} ms, p99 ${sample.p99.toFixed(3)} ms, lost ${sample.lost}`,
          );
          samples.get(server)?.push(sample);
        }
      }
    } finally {
      await Promise.all(runOrder(0, ours, baseline).map((server) => server.stop()));
    }
    const pick = (server: ServerProcess | undefined, key: 'p50' | 'p99'): number | null =>
      server === undefined ? null : median((samples.get(server) ?? []).map((sample) => sample[key]));
    const lost =
      ours === undefined
        ? 0
        : (samples.get(ours) ?? []).reduce((sum, sample) => sum + sample.lost + sample.errors.length, 0);
    const lostNote = lost > 0 ? { note: `${lost} messages not delivered or errors` } : {};
    const p50Ratio = ratioOf(pick(ours, 'p50'), pick(baseline, 'p50'));
    const p99Ratio = ratioOf(pick(ours, 'p99'), pick(baseline, 'p99'));
    const oursP99 = pick(ours, 'p99');
    const rate = `${1000 / intervalMs}/s`;
    return {
      rows: [
        {
          figure: `publish→delivery p50, 1 subscriber, ${rate}`,
          unit: 'ms',
          ours: pick(ours, 'p50'),
          baseline: pick(baseline, 'p50'),
          baselineName: 'B-ref',
          ratio: p50Ratio,
          target: '≤ 1.5×',
          pass: p50Ratio === null ? null : p50Ratio <= 1.5 && lost === 0,
          ...lostNote,
        },
        {
          figure: `publish→delivery p99, 1 subscriber, ${rate}`,
          unit: 'ms',
          ours: oursP99,
          baseline: pick(baseline, 'p99'),
          baselineName: 'B-ref',
          ratio: p99Ratio,
          target: '≤ 2× and < 5 ms',
          pass: p99Ratio === null || oursP99 === null ? null : p99Ratio <= 2 && oursP99 < 5 && lost === 0,
          ...lostNote,
        },
      ],
      details: {
        intervalMs,
        messagesPerRun,
        samples: Object.fromEntries([...samples].map(([server, list]) => [server.kind, list])),
      },
    };
  },
};
