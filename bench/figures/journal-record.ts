import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { emulatorModule } from '../paths.js';
import type { ServerSpec } from '../servers/server-spec.js';
import { median } from '../stats.js';
import { alternating } from './figure.js';

// What the journal adds to one publish, measured where it can be told apart: over HTTP the rounds
// scatter by ±10% (and in-process `inject` rounds by ±2 µs, more than the journal's whole work),
// so the journal's own part of a request is timed alone. The request path gathers the exchange
// facts either way while the metrics listen; what the journal adds is one more listener on the
// `request` event and `RequestJournal.record` into the default 10,000-entry ring. Each iteration
// emits the facts of a publish built afresh (new path, cache and topic strings, as a server's
// parser makes them, over 1,000 topics) and then scribbles over 512 KB, so the ring's lines are
// cold again at the next record, as they are on a busy server between two requests. Alternating
// rounds with a journal listening and with a no-op listener only; the difference is the cost.

interface Events {
  emit(event: unknown): void;
  on(listener: (event: unknown) => void, kinds?: string[]): () => void;
}
interface EventsModule {
  EmulatorEvents: new () => Events;
}
interface JournalModule {
  RequestJournal: new (events: Events, capacity: number) => unknown;
}

const requestsPerRound = 100_000;
const rounds = 6;
const scribble = new Uint8Array(512 * 1024);

function publishFacts(i: number) {
  const topic = `topic-${i % 1000}`;
  return {
    protocol: 'http',
    plane: 'service',
    operation: 'publish',
    method: 'POST',
    path: `/topics/${'default-cache'.slice(0)}/${topic}`,
    at: 1_000_000 + i,
    durationMs: 0.05,
    connectionId: i % 100,
    cache: `default-${'cache'}${''}`.slice(0),
    topic: topic.slice(0),
    cursor: null,
    client: 'key:3f2a9c',
    credentialPlace: 'header',
    bearer: false,
    status: 204,
    code: null,
    retryAfterSeconds: null,
    decidedBy: null,
    items: [],
    page: null,
    discontinuity: null,
    dropped: false,
    clientGone: false,
    waitedMs: 0,
  };
}

/** Nanoseconds per request: build a publish's facts, emit them, then evict the caches. */
function timeRound(events: Events): number {
  let sum = 0;
  const start = performance.now();
  for (let i = 0; i < requestsPerRound; i++) {
    events.emit({ kind: 'request', at: i, record: publishFacts(i) });
    for (let k = (i & 63) * 8; k < scribble.length; k += 64) sum += scribble[k] = (scribble[k]! + i) & 0xff;
  }
  const ns = ((performance.now() - start) * 1e6) / requestsPerRound;
  return sum === -1 ? 0 : ns;
}

export interface JournalCost {
  /** Nanoseconds per request with the journal listening, without it, and the difference. */
  withJournal: number;
  without: number;
  added: number;
}

export async function journalRecordCost(ours: ServerSpec): Promise<JournalCost> {
  const emulatorDir = dirname(ours.emulatorModule ?? emulatorModule);
  const { EmulatorEvents } = (await import(pathToFileURL(join(emulatorDir, 'events.js')).href)) as EventsModule;
  const { RequestJournal } = (await import(
    pathToFileURL(join(emulatorDir, 'journal', 'journal.js')).href
  )) as JournalModule;
  // Both have the metrics' stand-in listening; one has the journal too.
  const bare = new EmulatorEvents();
  bare.on(() => {}, ['request']);
  const journalled = new EmulatorEvents();
  journalled.on(() => {}, ['request']);
  new RequestJournal(journalled, 10_000);
  timeRound(bare);
  timeRound(journalled);
  const withJournal: number[] = [];
  const without: number[] = [];
  const sides: [Events, number[]][] = [
    [journalled, withJournal],
    [bare, without],
  ];
  for (let round = 0; round < rounds; round++)
    for (const [events, times] of alternating(round, sides)) times.push(timeRound(events));
  const a = median(withJournal);
  const b = median(without);
  return { withJournal: a, without: b, added: a - b };
}
