import { BenchChild } from '../ipc.js';
import type { ServerKind, ServerSpec } from './server-spec.js';

export interface MemoryUsage {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  gcExposed: boolean;
}

export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

/** A server under measurement in its own process, with the probes of server-child.ts. */
export class ServerProcess {
  private constructor(
    readonly kind: ServerKind,
    readonly url: string,
    readonly apiKey: string,
    private readonly child: BenchChild,
    /** host:port of its gRPC door, when it has one. */
    readonly grpcEndpoint: string | undefined,
  ) {}

  static async start(spec: ServerSpec, options: { cpuProfileDir?: string } = {}): Promise<ServerProcess> {
    const execArgv = ['--expose-gc'];
    if (options.cpuProfileDir !== undefined) execArgv.push('--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`);
    const child = new BenchChild('servers/server-child', spec, { execArgv });
    try {
      const ready = await child.next<{ url: string; apiKey: string; grpcEndpoint?: string }>('ready', 30_000);
      return new ServerProcess(spec.kind, ready.url, ready.apiKey, child, ready.grpcEndpoint);
    } catch (error) {
      child.process.kill('SIGKILL');
      throw error;
    }
  }

  get pid(): number | undefined {
    return this.child.process.pid;
  }

  memory(gc = true): Promise<MemoryUsage> {
    return this.child.call('memory', { gc });
  }

  inflight(): Promise<number> {
    return this.child.call('inflight');
  }

  /** From now on, time each POST inside the server (see lastPostMs). */
  timePosts(): Promise<boolean> {
    return this.child.call('timePosts');
  }

  /** Server-side time of the last POST it answered, request parsed to answer written (ms); after timePosts(). */
  lastPostMs(): Promise<number | undefined> {
    return this.child.call('lastPostMs');
  }

  waitInflight(count: number, timeoutMs = 60_000): Promise<number> {
    return this.child.call('waitInflight', { count, timeoutMs }, timeoutMs + 5_000);
  }

  /** CPU milliseconds the server's process has used so far. */
  cpuMs(): Promise<number> {
    return this.child.call('cpu');
  }

  startLoopDelay(resolutionMs = 10): Promise<boolean> {
    return this.child.call('eldStart', { resolutionMs });
  }

  stopLoopDelay(): Promise<LoopDelay> {
    return this.child.call('eldStop');
  }

  stop(): Promise<void> {
    return this.child.stop();
  }
}
