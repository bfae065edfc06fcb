import diagnostics from 'node:diagnostics_channel';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startBFastify } from '../baselines/b-fastify.js';
import { startBGrpc } from '../baselines/b-grpc.js';
import { startBRef } from '../baselines/b-ref.js';
import type { RunningServer } from '../baselines/running-server.js';
import { announce, serveParent } from '../ipc.js';
import { startLayered, type Layer } from '../profile/layered-fastify.js';
import { emulatorModule } from '../paths.js';
import type { ServerSpec } from './server-spec.js';

// One server under measurement, alone in its process so the load generator does not share its
// event loop. It answers the harness's probes over IPC: memory, requests in flight, event-loop
// delay. The probes read the process, not the server's internals, so all three servers are
// measured the same way.

const spec = JSON.parse(process.argv[2] ?? '{}') as ServerSpec;

interface Emulator {
  url: string;
  apiKey: string;
  grpcEndpoint?: string;
  close(): Promise<void>;
}
interface EmulatorModule {
  startEmulator(options: Record<string, unknown>): Promise<Emulator>;
}

async function startEmulator(): Promise<Emulator> {
  const emulator = (await import(pathToFileURL(spec.emulatorModule ?? emulatorModule).href)) as EmulatorModule;
  return emulator.startEmulator({ host: '127.0.0.1', port: 0, logLevel: 'warn', ...spec.settings });
}

interface InliningBudgetModule {
  widenInliningBudget: (store: string) => number | null;
}
interface TickShapeModule {
  keepTickShape: () => void;
}

/**
 * V8 tuned as the CLI's server command tunes its own process (emulator/inlining-budget.ts for this
 * server's store, emulator/tick-shape.ts), from the same build.
 */
async function tuneAsTheCli(): Promise<void> {
  const dir = dirname(spec.emulatorModule ?? emulatorModule);
  const { widenInliningBudget } = (await import(
    pathToFileURL(join(dir, 'inlining-budget.js')).href
  )) as InliningBudgetModule;
  widenInliningBudget((spec.settings?.['store'] as string | undefined) ?? 'memory');
  const { keepTickShape } = (await import(pathToFileURL(join(dir, 'tick-shape.js')).href)) as TickShapeModule;
  keepTickShape();
}

async function start(): Promise<RunningServer & { apiKey: string; grpcEndpoint?: string }> {
  if (spec.inliningBudget ?? spec.kind === 'ours') await tuneAsTheCli();
  if (spec.kind === 'b-grpc') {
    const running = await startBGrpc();
    return { url: '', apiKey: '', grpcEndpoint: running.grpcEndpoint, close: () => running.close() };
  }
  if (spec.kind === 'b-fastify') return { ...(await startBFastify()), apiKey: '' };
  if (spec.kind === 'b-ref') return { ...(await startBRef()), apiKey: '' };
  if (spec.kind === 'layered') return { ...(await startLayered((spec.layers ?? []) as Layer[])), apiKey: '' };
  const running = await startEmulator();
  return {
    url: running.url,
    apiKey: running.apiKey,
    ...(running.grpcEndpoint !== undefined ? { grpcEndpoint: running.grpcEndpoint } : {}),
    close: () => running.close(),
  };
}

// Requests in flight, counted from node's own HTTP diagnostics: a parked long-poll is a request
// that has started and not finished. A request whose client went away is never finished, so
// figures count relative to what was in flight before they parked anything. (Listening for each
// response's `close` would be exact but would add to the memory per request being measured.)
let started = 0;
let finished = 0;
// A publish's acknowledgement as the server sees it: from its request parsed to its answer handed
// to the kernel ('finish'), free of the load generator's wait for a CPU. POSTs only, and only
// once a figure asks for it (timePosts), so the other figures do not pay for it.
const postStartedAt = new WeakMap<object, number>();
let timingPosts = false;
let lastPostMs: number | undefined;
if (spec.probes !== false) {
  diagnostics.subscribe('http.server.request.start', (message) => {
    started++;
    const { request } = message as { request: { method?: string } };
    if (timingPosts && request.method === 'POST') postStartedAt.set(request, performance.now());
  });
  diagnostics.subscribe('http.server.response.finish', (message) => {
    finished++;
    const startedAt = postStartedAt.get((message as { request: object }).request);
    if (startedAt !== undefined) lastPostMs = performance.now() - startedAt;
  });
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function settled(): Promise<void> {
  // A request counted as started may still be in its async hooks; a few loop turns let it park.
  for (let i = 0; i < 3; i++) await turn();
}

function probed(): void {
  if (spec.probes === false) throw new Error('this server was started without request probes (probes: false)');
}

const gc = (globalThis as { gc?: () => void }).gc;
let delay: IntervalHistogram | undefined;
let delayResolutionMs = 10;

const server = await start();

serveParent({
  memory: async (args: { gc?: boolean }) => {
    await settled();
    if (args.gc !== false && gc !== undefined) {
      gc();
      await turn();
      gc();
    }
    return { ...process.memoryUsage(), gcExposed: gc !== undefined };
  },
  inflight: async () => {
    probed();
    await settled();
    return started - finished;
  },
  /** Resolves once exactly `count` requests are in flight (parked), or rejects after the timeout. */
  waitInflight: async (args: { count: number; timeoutMs: number }) => {
    probed();
    const deadline = Date.now() + args.timeoutMs;
    for (;;) {
      if (started - finished === args.count) {
        await settled();
        if (started - finished === args.count) return args.count;
      }
      if (Date.now() > deadline) throw new Error(`in flight ${started - finished}, expected ${args.count}`);
      await pause(2);
    }
  },
  /** Starts timing POSTs inside the server (lastPostMs). */
  timePosts: () => {
    probed();
    return (timingPosts = true);
  },
  /** Server-side time of the last POST answered: request parsed to answer written (ms). */
  lastPostMs: () => lastPostMs,
  /** CPU time used by this process so far (user + system, ms), to tell a saturated server from an idle one. */
  cpu: () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  },
  eldStart: (args: { resolutionMs?: number }) => {
    delay?.disable();
    delayResolutionMs = args.resolutionMs ?? 10;
    delay = monitorEventLoopDelay({ resolution: delayResolutionMs });
    delay.enable();
    return true;
  },
  eldStop: () => {
    if (delay === undefined) throw new Error('eldStart was not called');
    delay.disable();
    // The histogram holds whole timer intervals; the delay is what exceeds the interval asked for
    // (as @fastify/under-pressure reads it).
    const ms = (ns: number): number => Math.max(0, ns / 1e6 - delayResolutionMs);
    const result = {
      p50: ms(delay.percentile(50)),
      p99: ms(delay.percentile(99)),
      max: ms(delay.max),
      samples: delay.count,
    };
    delay = undefined;
    return result;
  },
  close: async () => {
    await server.close();
    setImmediate(() => process.exit(0));
    return true;
  },
});

announce('ready', { url: server.url, apiKey: server.apiKey, grpcEndpoint: server.grpcEndpoint });
