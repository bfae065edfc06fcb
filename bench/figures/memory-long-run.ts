import { Pool } from 'undici';
import { nowMs } from '../clock.js';
import { devCredentials, publishHeaders, topicPath } from '../load/publisher.js';
import { ServerProcess, type MemoryUsage } from '../servers/server-process.js';
import type { BenchContext, Figure, FigureResult } from './figure.js';

// Memory under a long run: many publishes spread round-robin over 1,000 topics, with the heap
// (after GC) sampled at every tenth. Once every topic holds `retention` messages the heap must
// stop growing; the plateau divided by the messages retained is the cost per retained message.

const topicCount = 1_000;
const concurrency = 32;
const checkpoints = 10;
const payload = 'x'.repeat(100);

interface Checkpoint {
  published: number;
  heapUsed: number;
  rss: number;
  external: number;
}

function checkpoint(published: number, memory: MemoryUsage): Checkpoint {
  return { published, heapUsed: memory.heapUsed, rss: memory.rss, external: memory.external };
}

export const memoryLongRun: Figure = {
  name: 'memory',
  async run(context: BenchContext): Promise<FigureResult> {
    // The default run keeps 50 messages per topic so the plateau shows within 100,000 publishes;
    // --long uses the emulator's default retention (100) over 1,000,000.
    const retention = context.options.long ? 100 : 50;
    const total = context.options.long ? 1_000_000 : 100_000;
    const figure = `memory, ${total.toLocaleString('en')} publishes over ${topicCount.toLocaleString('en')} topics`;
    if (context.ours === undefined) {
      return {
        rows: [
          {
            figure,
            unit: 'MB',
            ours: null,
            baseline: null,
            baselineName: '—',
            ratio: null,
            target: 'plateau (bounded by retention)',
            pass: null,
            note: 'emulator not built',
          },
        ],
        details: {},
      };
    }
    const server = await ServerProcess.start({ ...context.ours, settings: { ...context.ours.settings, retention } });
    const pool = new Pool(server.url, { connections: concurrency, pipelining: 1 });
    const points: Checkpoint[] = [];
    let failures = 0;
    const started = nowMs();
    try {
      points.push(checkpoint(0, await server.memory()));
      const perCheckpoint = total / checkpoints;
      let next = 0;
      for (let c = 1; c <= checkpoints; c++) {
        const end = c * perCheckpoint;
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (next < end) {
              const n = next++;
              const response = await pool.request({
                path: topicPath(devCredentials, `memory-${n % topicCount}`),
                method: 'POST',
                headers: publishHeaders(devCredentials),
                body: payload,
              });
              await response.body.dump();
              if (response.statusCode !== 204) failures++;
            }
          }),
        );
        points.push(checkpoint(end, await server.memory()));
        context.log(`memory: ${end} published, heap ${(points.at(-1)!.heapUsed / 1e6).toFixed(1)} MB`);
      }
    } finally {
      await pool.close();
      await server.stop();
    }
    const seconds = (nowMs() - started) / 1000;
    const first = points[0] as Checkpoint;
    const last = points.at(-1) as Checkpoint;
    // Every topic is full once retention × topics messages are in; from then on, a plateau.
    const fullAt = retention * topicCount;
    const plateauStart = points.find((point) => point.published >= Math.max(fullAt, total / 2)) ?? last;
    const growthMb = (last.heapUsed + last.external - plateauStart.heapUsed - plateauStart.external) / 1e6;
    const retained = Math.min(total, fullAt);
    const perMessage = (last.heapUsed + last.external - first.heapUsed - first.external) / retained;
    const plateau = total > fullAt;
    return {
      rows: [
        {
          figure: `${figure}: heap growth after ${plateauStart.published.toLocaleString('en')}`,
          unit: 'MB',
          ours: growthMb,
          baseline: null,
          baselineName: '—',
          ratio: null,
          target: 'plateau (< 2 MB growth)',
          pass: plateau ? growthMb < 2 && failures === 0 : null,
          note: `${(total / seconds).toFixed(0)} publishes/s at ${concurrency} connections; ${failures} failed`,
        },
        {
          figure: `memory per retained message (${payload.length}-byte text, retention ${retention})`,
          unit: 'bytes',
          ours: perMessage,
          baseline: null,
          baselineName: '—',
          ratio: null,
          target: 'documented',
          pass: null,
        },
      ],
      details: {
        total,
        topicCount,
        retention,
        concurrency,
        payloadBytes: payload.length,
        seconds,
        failures,
        checkpoints: points,
      },
    };
  },
};
