import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { EmulatorContext } from '../context.js';

// The emulator's metrics in the Prometheus text format (GET /_emulator/metrics), one registry
// per emulator. Counting on the request path is a map lookup and an addition; gauges (waiting
// long-polls, topics, retained messages, faults injected) are read from the state at scrape.

const PREFIX = 'topics_emulator_';

/** What one answered request adds to the counters. */
export interface AnsweredRequest {
  plane: 'service' | 'control';
  /** The operationId, or null when no route matched. */
  operation: string | null;
  status: number;
  /** Items a subscribe answer delivered. */
  items: number;
  /** Whether a subscribe answer announced a discontinuity. */
  discontinuity: boolean;
}

let processRegistry: Registry | undefined;

// The process's own metrics (CPU, memory, event-loop lag, GC) are one set per process, however
// many emulators it runs: collected once, into a registry every emulator's scrape appends.
function processMetrics(): Registry {
  if (processRegistry) return processRegistry;
  processRegistry = new Registry();
  collectDefaultMetrics({ register: processRegistry, prefix: PREFIX });
  return processRegistry;
}

export class EmulatorMetrics {
  private readonly registry = new Registry();
  private readonly requests: Counter<'plane' | 'operation' | 'status'>;
  private readonly requestsByKey = new Map<string, Counter.Internal>();
  private readonly publishes: Counter;
  private readonly deliveries: Counter;
  private readonly discontinuities: Counter;
  private readonly wakeLatency: Histogram;

  constructor(context: Pick<EmulatorContext, 'store' | 'faults'>) {
    const { store, faults } = context;
    const registers = [this.registry];
    this.requests = new Counter({
      name: `${PREFIX}requests_total`,
      help: 'Answered requests, by plane (service or control), operationId and status.',
      labelNames: ['plane', 'operation', 'status'],
      registers,
    });
    this.publishes = new Counter({ name: `${PREFIX}publishes_total`, help: 'Messages published.', registers });
    this.deliveries = new Counter({
      name: `${PREFIX}deliveries_total`,
      help: 'Items delivered in subscribe answers.',
      registers,
    });
    this.discontinuities = new Counter({
      name: `${PREFIX}discontinuities_total`,
      help: 'Subscribe answers that announced a discontinuity.',
      registers,
    });
    this.wakeLatency = new Histogram({
      name: `${PREFIX}wake_latency_seconds`,
      help: 'From a publish to the answer of a subscriber it woke (real time).',
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    new Counter({
      name: `${PREFIX}faults_fired_total`,
      help: 'Faults injected, by fault rules and chaos.',
      registers,
      collect() {
        this.reset();
        this.inc(faults.injected);
      },
    });
    new Gauge({
      name: `${PREFIX}waiting_subscribers`,
      help: 'Subscribe requests waiting (long-polls) now.',
      registers,
      collect() {
        this.set(store.waitingCount());
      },
    });
    new Gauge({
      name: `${PREFIX}topics`,
      help: 'Topics the emulator holds.',
      registers,
      collect() {
        this.set(store.snapshot().length);
      },
    });
    new Gauge({
      name: `${PREFIX}retained_messages`,
      help: 'Messages retained, over every topic.',
      registers,
      collect() {
        this.set(store.snapshot().reduce((sum, topic) => sum + topic.retainedCount, 0));
      },
    });
    store.observeWakes((ms) => this.wakeLatency.observe(ms / 1000));
  }

  /** Counts one answered request. */
  answered(request: AnsweredRequest): void {
    const operation = request.operation ?? 'none';
    const key = `${request.plane} ${operation} ${request.status}`;
    let counter = this.requestsByKey.get(key);
    if (!counter) {
      counter = this.requests.labels({ plane: request.plane, operation, status: String(request.status) });
      this.requestsByKey.set(key, counter);
    }
    counter.inc();
    if (operation === 'publish' && request.status === 204) this.publishes.inc();
    if (request.items > 0) this.deliveries.inc(request.items);
    if (request.discontinuity) this.discontinuities.inc();
  }

  /** The text a Prometheus scrape gets. */
  async text(): Promise<string> {
    return `${await this.registry.metrics()}\n${await processMetrics().metrics()}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
