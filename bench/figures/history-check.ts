import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { checkHistory } from '../../conformance/history/checks/index.js';
import type { HistoryEvent } from '../../conformance/history/events.js';
import { readHistory } from '../../conformance/history/file.js';
import { indexHistory } from '../../conformance/history/model.js';
import { nowMs } from '../clock.js';
import { ratioOf, type BenchContext, type Figure, type FigureResult } from './figure.js';

// `topics-conformance history --check` on a history of 1,000,000 events (200,000 publishes by 4
// publishers, 800,000 answers to 8 subscribers, two items each), against reading the same file
// and parsing each line (what any tool that reads the history pays). Checking is linear in the
// history (n log n where it sorts): the ratio is what the checks add to reading.

const PUBLISHES = 200_000;
const SUBSCRIBERS = 8;
const PER_READ = 2;
const TARGET_SECONDS = 10;

async function writeHistory(path: string): Promise<number> {
  const out = createWriteStream(path);
  let events = 0;
  const write = (event: HistoryEvent) => {
    events++;
    return out.write(`${JSON.stringify(event)}\n`) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', r));
  };
  const page = 1_795_000_000;
  await write({
    type: 'run',
    version: 1,
    baseUrls: ['http://127.0.0.1:4545'],
    cache: 'default-cache',
    topic: 'bench',
    publishers: 4,
    subscribers: SUBSCRIBERS,
    startedAt: 0,
    strict: true,
  });
  for (let i = 0; i < PUBLISHES; i++) {
    const at = i * 0.05;
    await write({
      type: 'publish',
      publisher: `p${(i % 4) + 1}`,
      target: 0,
      payload: `h/bench/${i}`,
      sentAt: at,
      answeredAt: at + 0.04,
      status: 204,
    });
  }
  for (let s = 1; s <= SUBSCRIBERS; s++)
    for (let i = 0; i < PUBLISHES; i += PER_READ) {
      const at = i * 0.05 + 0.045;
      await write({
        type: 'read',
        subscriber: `s${s}`,
        target: 0,
        cursor: { n: i === 0 ? 0 : i + 1, page: i === 0 ? 0 : page },
        sentAt: at - 0.01,
        answeredAt: at + 0.001,
        status: 200,
        elements: Array.from({ length: PER_READ }, (_, k) => ({
          kind: 'item' as const,
          n: i + k + 1,
          page,
          payload: `h/bench/${i + k}`,
        })),
      });
    }
  await new Promise<void>((resolve) => out.end(resolve));
  return events;
}

async function parseOnly(path: string): Promise<number> {
  let parsed = 0;
  for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity }))
    if (line !== '') parsed += (JSON.parse(line) as unknown) === null ? 0 : 1;
  return parsed;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

export const historyCheck: Figure = {
  name: 'history-check',
  async run(context: BenchContext): Promise<FigureResult> {
    const dir = mkdtempSync(join(tmpdir(), 'bench-history-'));
    try {
      const path = join(dir, 'history.jsonl');
      const events = await writeHistory(path);
      const baseline: number[] = [];
      const ours: number[] = [];
      let anomalies = -1;
      for (let round = 0; round < Math.max(context.options.runs, 3); round++) {
        context.log(`history-check: round ${round + 1}`);
        let start = nowMs();
        await parseOnly(path);
        baseline.push((nowMs() - start) / 1000);
        start = nowMs();
        const results = checkHistory(indexHistory(await readHistory(path)), true);
        ours.push((nowMs() - start) / 1000);
        anomalies = results.reduce((sum, r) => sum + r.anomalies.length, 0);
      }
      const oursSeconds = median(ours);
      return {
        rows: [
          {
            figure: `topics-conformance history --check: ${events.toLocaleString('en-US')} events`,
            unit: 's',
            ours: oursSeconds,
            baseline: median(baseline),
            baselineName: 'read and JSON.parse each line',
            ratio: ratioOf(oursSeconds, median(baseline)),
            target: `< ${TARGET_SECONDS} s`,
            pass: oursSeconds < TARGET_SECONDS && anomalies === 0,
            ...(anomalies === 0 ? {} : { note: `${anomalies} anomalies in a clean history` }),
          },
        ],
        details: { events, ours, baseline },
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
