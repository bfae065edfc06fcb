import { execFileSync } from 'node:child_process';
import { pause } from '../clock.js';
import { devCredentials, Publisher } from '../load/publisher.js';
import type { SwarmProcess } from '../load/swarm-process.js';
import { ServerProcess, type LoopDelay } from '../servers/server-process.js';
import type { ServerSpec } from '../servers/server-spec.js';
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

// Idle long-polls held: N subscribers wait on 100 topics for a while, then one publish per topic
// must reach every one of them. Measured in the server's process: the memory each waiting
// request costs (RSS and heap after GC, before and after parking) and the event-loop delay while
// they wait. Each run uses a fresh server so that one run's garbage is not the next one's start.

const topicCount = 100;

interface Sample {
  held: number;
  errors: number;
  rssPerRequest: number;
  heapPerRequest: number;
  loopDelay: LoopDelay;
}

/** The open-files limit the children inherit (a parked request costs one descriptor on each side). */
function openFilesLimit(): number {
  try {
    return Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
  } catch {
    return Number.NaN;
  }
}

function subscribersOn(topic: number, total: number): number {
  return Math.floor(total / topicCount) + (topic < total % topicCount ? 1 : 0);
}

async function warmUp(server: ServerProcess, swarm: SwarmProcess): Promise<void> {
  const publisher = new Publisher(server.url, devCredentials);
  await swarm.park({
    url: server.url,
    cacheName: devCredentials.cacheName,
    topics: ['idle-warm-up'],
    count: 200,
    headers: { authorization: devCredentials.apiKey },
    follow: false,
  });
  await server.waitInflight(200, 30_000);
  await publisher.publishOk('idle-warm-up', 'warm');
  await swarm.waitDelivered('warm', 200, 10_000);
  await publisher.close();
  await swarm.reset();
}

async function holdOnce(
  spec: ServerSpec,
  swarm: SwarmProcess,
  run: number,
  count: number,
  holdMs: number,
  log: (message: string) => void,
): Promise<Sample> {
  const server = await ServerProcess.start(spec);
  const publisher = new Publisher(server.url, devCredentials);
  try {
    await warmUp(server, swarm);
    await server.waitInflight(0, 10_000);
    const before = await server.memory();
    const topics = Array.from({ length: topicCount }, (_, k) => `idle-${run}-${k}`);
    await swarm.park({
      url: server.url,
      cacheName: devCredentials.cacheName,
      topics,
      count,
      headers: { authorization: devCredentials.apiKey },
      follow: false,
    });
    await server.waitInflight(count, 60_000);
    const parked = await server.memory();
    await server.startLoopDelay();
    await pause(holdMs);
    const loopDelay = await server.stopLoopDelay();
    const stillWaiting = await server.inflight();
    let delivered = 0;
    for (const [k, topic] of topics.entries()) {
      const text = `release-${topic}`;
      await publisher.publishOk(topic, text);
      delivered += (await swarm.waitDelivered(text, subscribersOn(k, count), 30_000)).count;
    }
    const stats = await swarm.stats();
    const held = Math.min(stillWaiting, delivered);
    log(
      `idle: ${spec.kind} run ${run + 1}: ${held}/${count} held and delivered, ${stats.errors} errors, loop delay p99 ${loopDelay.p99.toFixed(2)} ms`,
    );
    return {
      held,
      errors: stats.errors + (count - held),
      rssPerRequest: (parked.rss - before.rss) / count,
      heapPerRequest: (parked.heapUsed + parked.external - before.heapUsed - before.external) / count,
      loopDelay,
    };
  } finally {
    await publisher.close();
    await swarm.reset();
    await server.stop();
  }
}

export const idle: Figure = {
  name: 'idle',
  async run(context: BenchContext): Promise<FigureResult> {
    const wanted = context.options.long ? 50_000 : 10_000;
    const holdMs = context.options.long ? 60_000 : 5_000;
    const runs = context.options.long ? 1 : 2;
    const limit = openFilesLimit();
    const count =
      Number.isFinite(limit) && wanted + 1_000 > limit ? Math.floor((limit - 1_000) / 1_000) * 1_000 : wanted;
    const capped =
      count < wanted
        ? `${wanted.toLocaleString('en')} not runnable here: open-files limit ${limit}; held ${count.toLocaleString('en')}`
        : undefined;
    // Nothing may time out or be refused while held: no long-poll timeout, and room for all.
    const ours = withSettings(context.ours, { longPollTimeoutMs: 0, maxWaitingSubscribers: count + 1_000 });
    const baseline: ServerSpec = { kind: 'b-ref' };
    const samples = new Map<string, Sample[]>();
    for (let i = 0; i < runs; i++) {
      for (const spec of runOrder(i, ours, baseline)) {
        const sample = await holdOnce(spec, context.swarm, i, count, holdMs, context.log);
        samples.set(spec.kind, [...(samples.get(spec.kind) ?? []), sample]);
      }
    }
    const pick = (kind: string, value: (sample: Sample) => number): number | null => {
      const list = samples.get(kind);
      return list === undefined ? null : median(list.map(value));
    };
    const errors = pick('ours', (sample) => sample.errors);
    const rss = (kind: string): number | null => {
      const bytes = pick(kind, (sample) => sample.rssPerRequest);
      return bytes === null ? null : bytes / 1024;
    };
    const memoryRatio = ratioOf(rss('ours'), rss('b-ref'));
    const loopDelay = pick('ours', (sample) => sample.loopDelay.p99);
    const heapNote = `heap+external per request: ours ${((pick('ours', (s) => s.heapPerRequest) ?? Number.NaN) / 1024).toFixed(1)} KB, B-ref ${((pick('b-ref', (s) => s.heapPerRequest) ?? Number.NaN) / 1024).toFixed(1)} KB`;
    const rows: Row[] = [
      {
        figure: `idle long-polls held (${count.toLocaleString('en')} for ${holdMs / 1000} s), errors`,
        unit: 'errors',
        ours: errors,
        baseline: pick('b-ref', (sample) => sample.errors),
        baselineName: 'B-ref',
        ratio: null,
        target: '0 errors',
        pass: errors === null ? null : errors === 0 && count >= 10_000,
        ...(capped !== undefined ? { note: capped } : {}),
      },
      {
        figure: 'memory per waiting request (RSS delta)',
        unit: 'KB',
        ours: rss('ours'),
        baseline: rss('b-ref'),
        baselineName: 'B-ref',
        ratio: memoryRatio,
        target: '≤ 1.5×',
        pass: memoryRatio === null ? null : memoryRatio <= 1.5,
        note: heapNote,
      },
      {
        figure: 'event-loop delay p99 while held',
        unit: 'ms',
        ours: loopDelay,
        baseline: pick('b-ref', (sample) => sample.loopDelay.p99),
        baselineName: 'B-ref',
        ratio: null,
        target: '< 20 ms',
        pass: loopDelay === null ? null : loopDelay < 20,
      },
    ];
    return {
      rows,
      details: { wanted, count, holdMs, topicCount, openFilesLimit: limit, samples: Object.fromEntries(samples) },
    };
  },
};
