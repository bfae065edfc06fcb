import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { emulatorModule } from '../paths.js';
import type { ServerSpec } from '../servers/server-spec.js';
import { median } from '../stats.js';

// The journal's own work per request, measured in this process, free of the load generator and
// the network: what the emulator does for the journal that it does not do without it, i.e. one
// more listener on the `request` event and `RequestJournal.record` into the default 10,000-entry
// ring. (The exchange facts themselves are gathered either way while the metrics listen.) The
// facts are a publish's, over 1,000 topics, so the ring's string pool works as in real traffic.

interface EventsModule {
  EmulatorEvents: new () => {
    emit(event: unknown): void;
    on(listener: (event: unknown) => void, kinds?: string[]): () => void;
  };
}
interface JournalModule {
  RequestJournal: new (events: unknown, capacity: number) => unknown;
}

const requests = 1_000_000;
const rounds = 5;

function publishFacts(i: number) {
  const topic = `topic-${i % 1000}`;
  return {
    plane: 'service',
    operation: 'publish',
    method: 'POST',
    path: `/topics/default-cache/${topic}`,
    at: 1_000_000 + i,
    durationMs: 0.05,
    connectionId: i % 100,
    cache: 'default-cache',
    topic,
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
    waitedMs: null,
  };
}

/** Nanoseconds per request of emitting `count` request events to the given listeners. */
function timeEmits(events: { emit(event: unknown): void }, records: unknown[]): number {
  const start = performance.now();
  for (let i = 0; i < requests; i++) events.emit({ kind: 'request', at: i, record: records[i % records.length] });
  return ((performance.now() - start) * 1e6) / requests;
}

/** The journal's added cost per request (ns): emits with a journal listening, less emits with a no-op listener. */
export async function journalRecordNs(
  ours: ServerSpec,
): Promise<{ withJournal: number; without: number; added: number }> {
  const emulatorDir = dirname(ours.emulatorModule ?? emulatorModule);
  const { EmulatorEvents } = (await import(pathToFileURL(join(emulatorDir, 'events.js')).href)) as EventsModule;
  const { RequestJournal } = (await import(
    pathToFileURL(join(emulatorDir, 'journal', 'journal.js')).href
  )) as JournalModule;
  const records = Array.from({ length: 4096 }, (_, i) => publishFacts(i));
  const withJournal: number[] = [];
  const without: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const bare = new EmulatorEvents();
    bare.on(() => {}, ['request']);
    without.push(timeEmits(bare, records));
    const journalled = new EmulatorEvents();
    journalled.on(() => {}, ['request']);
    new RequestJournal(journalled, 10_000);
    withJournal.push(timeEmits(journalled, records));
  }
  const a = median(withJournal);
  const b = median(without);
  return { withJournal: a, without: b, added: Math.max(0, a - b) };
}
