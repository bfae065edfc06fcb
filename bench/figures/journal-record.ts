import { pathToFileURL } from 'node:url';
import { emulatorModule } from '../paths.js';
import type { ServerSpec } from '../servers/server-spec.js';
import { median } from '../stats.js';

// The journal's cost per publish, measured in one process, where the load generator and the
// network add nothing and the rounds scatter by a few per cent instead of ±10%: two emulators
// (the journal on, and `journalSize: 0`), each publish through fastify's `inject` (the whole
// request path but the socket), in alternating rounds; the CPU time per publish of each, and the
// difference, which is what the journal adds: its listener on the event stream, its record, and
// what they cost the garbage collector. `inject` itself costs more than a socket, so only the
// difference means something here; journal.ts sets it against a publish's CPU over HTTP.

interface Emulator {
  app: { inject(request: object): Promise<{ statusCode: number; body: string }> };
  close(): Promise<void>;
}
interface EmulatorModule {
  startEmulator: (options: Record<string, unknown>) => Promise<Emulator>;
}

const publishesPerRound = 20_000;
const rounds = 10;

const publish = {
  method: 'POST',
  url: '/topics/default-cache/bench-journal',
  headers: { authorization: 'topics-emulator-dev-key', 'content-type': 'text/plain', host: '127.0.0.1' },
  payload: 'hello from the topics-emulator bench',
};

/** CPU time (µs) per publish of one round. */
async function round(emulator: Emulator): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < publishesPerRound; i++) {
    const answer = await emulator.app.inject(publish);
    if (answer.statusCode !== 204) throw new Error(`journal: a publish answered ${answer.statusCode}: ${answer.body}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / publishesPerRound;
}

export interface JournalCost {
  /** CPU per publish, µs, in process, journal on and off, and the difference (below 0: lost in the rounds' scatter). */
  on: number;
  off: number;
  added: number;
}

export async function journalCostInProcess(ours: ServerSpec): Promise<JournalCost> {
  const { startEmulator } = (await import(pathToFileURL(ours.emulatorModule ?? emulatorModule).href)) as EmulatorModule;
  const settings = { host: '127.0.0.1', port: 0, logLevel: 'warn', ...ours.settings };
  const on = await startEmulator(settings);
  const off = await startEmulator({ ...settings, journalSize: 0 });
  try {
    await round(on);
    await round(off);
    const onUs: number[] = [];
    const offUs: number[] = [];
    for (let i = 0; i < rounds; i++) {
      if (i % 2 === 0) {
        onUs.push(await round(on));
        offUs.push(await round(off));
      } else {
        offUs.push(await round(off));
        onUs.push(await round(on));
      }
    }
    const a = median(onUs);
    const b = median(offUs);
    return { on: a, off: b, added: a - b };
  } finally {
    await Promise.all([on.close(), off.close()]);
  }
}
