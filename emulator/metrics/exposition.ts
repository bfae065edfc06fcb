import { createRequire } from 'node:module';
import type { Registry } from 'prom-client';
import type { EmulatorContext } from '../context.js';
import type { MetricsRecorder, Observations } from './recorder.js';

// The Prometheus text format of one emulator's metrics, by prom-client, which is loaded (and the
// registry built) on the first scrape. Every metric reads the recorder or the state when
// scraped; nothing here runs on the request path.

const require = createRequire(import.meta.url);
const PREFIX = 'topics_emulator_';
type PromClient = typeof import('prom-client');

let processRegistry: Registry | undefined;

// The process's own metrics (CPU, memory, event-loop lag, GC) are one set per process, however
// many emulators it runs: collected once, into a registry every emulator's scrape appends.
function processMetrics(prom: PromClient): Registry {
  if (processRegistry) return processRegistry;
  processRegistry = new prom.Registry();
  prom.collectDefaultMetrics({ register: processRegistry, prefix: PREFIX });
  return processRegistry;
}

type Sources = { recorder: MetricsRecorder } & Pick<EmulatorContext, 'store' | 'waiting'>;

function counter(prom: PromClient, registry: Registry, name: string, help: string, read: () => number): void {
  new prom.Counter({
    name: `${PREFIX}${name}`,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

function gauge(prom: PromClient, registry: Registry, name: string, help: string, read: () => number): void {
  new prom.Gauge({
    name: `${PREFIX}${name}`,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

// A histogram's buckets are counted by the recorder; prom-client's Histogram only counts its
// own observations, so this one is a metric object of the shape the registry formats
// (Histogram.get()'s: per series, cumulative `_bucket` lines, then `+Inf`, `_sum` and `_count`).
function recordedHistogram(
  registry: Registry,
  name: string,
  help: string,
  series: () => { labels: Record<string, string>; observations: Observations }[],
): void {
  const fullName = `${PREFIX}${name}`;
  const values = ({ labels, observations }: { labels: Record<string, string>; observations: Observations }) => {
    let cumulative = 0;
    const buckets = observations.bounds.map((le, i) => {
      cumulative += observations.buckets[i]!;
      return { labels: { ...labels, le }, value: cumulative, metricName: `${fullName}_bucket` };
    });
    return [
      ...buckets,
      { labels: { ...labels, le: '+Inf' }, value: observations.count, metricName: `${fullName}_bucket` },
      { labels, value: observations.sum, metricName: `${fullName}_sum` },
      { labels, value: observations.count, metricName: `${fullName}_count` },
    ];
  };
  const metric = {
    name: fullName,
    help,
    type: 'histogram',
    aggregator: 'sum',
    async get() {
      return { name: fullName, help, type: 'histogram', aggregator: 'sum', values: series().flatMap(values) };
    },
  };
  registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
}

function buildRegistry(prom: PromClient, { recorder, store, waiting }: Sources): Registry {
  const registry = new prom.Registry();
  new prom.Counter({
    name: `${PREFIX}requests_total`,
    help: 'Answered requests, by plane (service or control), operationId and status.',
    labelNames: ['plane', 'operation', 'status'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, count } of recorder.requests.values()) this.inc(labels, count);
    },
  });
  counter(
    prom,
    registry,
    'publishes_total',
    'Messages published: publishes answered 2xx, from any door.',
    () => recorder.publishes,
  );
  counter(prom, registry, 'deliveries_total', 'Items delivered in subscribe answers.', () => recorder.deliveries);
  counter(
    prom,
    registry,
    'discontinuities_total',
    'Subscribe answers that announced a discontinuity.',
    () => recorder.discontinuities,
  );
  counter(
    prom,
    registry,
    'faults_fired_total',
    'Requests a fault rule or chaos decided (answered, held, dropped).',
    () => recorder.faultsFired,
  );
  gauge(prom, registry, 'waiting_subscribers', 'Subscribe requests waiting (long-polls) now.', () => waiting.size);
  gauge(prom, registry, 'topics', 'Topics the emulator holds.', () => store.snapshot().length);
  gauge(prom, registry, 'retained_messages', 'Messages retained, over every topic.', () =>
    store.snapshot().reduce((sum, topic) => sum + topic.retainedCount, 0),
  );
  recordedHistogram(
    registry,
    'wake_latency_seconds',
    'From a publish to the answer of a subscriber it woke (real time).',
    () => [{ labels: {}, observations: recorder.wake }],
  );
  // Only a shared store has a connection to be up or down and round trips to time.
  if (store.health().kind !== 'memory') {
    gauge(
      prom,
      registry,
      'store_up',
      'Whether the store (Redis) is reachable and this replica in step with it (1) or not (0).',
      () => (store.health().up ? 1 : 0),
    );
    recordedHistogram(
      registry,
      'store_round_trip_seconds',
      'From a call to the store (a Redis script) to its answer, by script.',
      () => [...recorder.storeRoundTrips].map(([script, observations]) => ({ labels: { script }, observations })),
    );
  }
  return registry;
}

const registries = new WeakMap<MetricsRecorder, Registry>();

/** The scrape's body and content type. */
export async function exposition(sources: Sources): Promise<{ text: string; contentType: string }> {
  const prom = require('prom-client') as PromClient;
  let registry = registries.get(sources.recorder);
  if (!registry) registries.set(sources.recorder, (registry = buildRegistry(prom, sources)));
  const text = `${await registry.metrics()}\n${await processMetrics(prom).metrics()}`;
  return { text, contentType: registry.contentType };
}
