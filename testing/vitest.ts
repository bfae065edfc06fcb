// Vitest helpers for projects that test a Topics client against the emulator in-process.
// `useTopicsEmulator()` gives each test file an emulator and a clean one for every test;
// `topicsEmulatorGlobalSetup()` starts one for the whole run, shared by every worker.
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startEmulator, type ClientFindings, type EmulatorSettings, type RunningEmulator } from '../emulator/index.js';
import { formatFindings } from '../judge/format.js';

export interface TopicsEmulatorHandle {
  /** The running emulator: its url, apiKey and every control method (reset, addFault, setClock, ...). */
  readonly emulator: RunningEmulator;
  readonly url: string;
  readonly apiKey: string;
  /**
   * The gRPC door for the provider's SDKs, as `CredentialProvider.forMomentoLocal` takes it:
   * `forMomentoLocal(topics.grpc)`. Undefined when started with `grpcPort: undefined`.
   */
  readonly grpc: GrpcEndpoint | undefined;
}

/** Where the provider's SDKs reach the emulator: the argument of `CredentialProvider.forMomentoLocal`. */
export interface GrpcEndpoint {
  hostname: string;
  port: number;
}

function grpcOf(emulator: RunningEmulator): GrpcEndpoint | undefined {
  if (emulator.grpcEndpoint === undefined) return undefined;
  const at = emulator.grpcEndpoint.lastIndexOf(':');
  return { hostname: emulator.grpcEndpoint.slice(0, at), port: Number(emulator.grpcEndpoint.slice(at + 1)) };
}

/** The fixtures open the gRPC door on a free port (it costs nothing until an SDK connects). */
const FIXTURE_DEFAULTS: Partial<EmulatorSettings> = { port: 0, logLevel: 'silent', grpcPort: 0 };

/**
 * Starts an emulator before the file's tests, resets it before each test (topics, faults,
 * limits, tokens, clock) and closes it after them. Read the handle inside tests or hooks.
 */
export function useTopicsEmulator(options: Partial<EmulatorSettings> = {}): TopicsEmulatorHandle {
  let running: RunningEmulator | undefined;
  const current = (): RunningEmulator => {
    if (!running) throw new Error('the topics emulator is not started yet: read it inside a test or hook');
    return running;
  };
  beforeAll(async () => {
    running = await startEmulator({ ...FIXTURE_DEFAULTS, ...options });
  });
  beforeEach(() => {
    current().reset();
  });
  afterAll(async () => {
    await running?.close();
  });
  return {
    get emulator() {
      return current();
    },
    get url() {
      return current().url;
    },
    get apiKey() {
      return current().apiKey;
    },
    get grpc() {
      return grpcOf(current());
    },
  };
}

/** What a global setup provides to tests: `inject('topicsEmulator')`. */
export interface ProvidedTopicsEmulator {
  url: string;
  apiKey: string;
  /** `forMomentoLocal(inject('topicsEmulator').grpc)`; absent when started with `grpcPort: undefined`. */
  grpc?: GrpcEndpoint;
}

interface ProvidingProject {
  provide(key: 'topicsEmulator', value: ProvidedTopicsEmulator): void;
}

/**
 * A vitest globalSetup: one emulator for the whole run. Tests read `inject('topicsEmulator')`
 * and reset it over HTTP with `resetTopicsEmulator(url)` where they need a clean one.
 */
export function topicsEmulatorGlobalSetup(options: Partial<EmulatorSettings> = {}) {
  return async (project: ProvidingProject) => {
    const emulator = await startEmulator({ ...FIXTURE_DEFAULTS, ...options });
    const grpc = grpcOf(emulator);
    project.provide('topicsEmulator', { url: emulator.url, apiKey: emulator.apiKey, ...(grpc ? { grpc } : {}) });
    return () => emulator.close();
  };
}

/** Resets a running emulator through its control plane (any process). */
export async function resetTopicsEmulator(url: string, adminKey?: string): Promise<void> {
  const response = await fetch(`${url}/_emulator/reset`, {
    method: 'POST',
    headers: adminKey ? { 'x-emulator-admin-key': adminKey } : {},
  });
  if (!response.ok)
    throw new Error(`resetting the emulator at ${url} failed: ${response.status} ${await response.text()}`);
}

declare module 'vitest' {
  export interface ProvidedContext {
    topicsEmulator: ProvidedTopicsEmulator;
  }
}

export interface ClientViolationOptions {
  /** Only the rules that fail an exam without --strict (levels `contract` and `harm`); by default advice counts too. */
  contractOnly?: boolean;
  /** Only this client identity (`token:<id>`, `key:#<digest>`). */
  client?: string;
}

type HoldsFindings = TopicsEmulatorHandle | Pick<RunningEmulator, 'clients'> | { clients: ClientFindings[] };

async function findingsOf(received: HoldsFindings): Promise<ClientFindings[]> {
  if ('emulator' in received) return (await received.emulator.clients()).clients;
  if (typeof received.clients === 'function') return (await received.clients()).clients;
  return received.clients;
}

expect.extend({
  /**
   * `await expect(topics).toHaveNoClientViolations()`: the client rules found nothing wrong in
   * what the clients sent (the journal since the last reset; with a shared store, every
   * replica's). The failure lists every violation with its rule, the sentence it rests on and
   * the requests that show it.
   */
  async toHaveNoClientViolations(received: HoldsFindings, options: ClientViolationOptions = {}) {
    const clients = (await findingsOf(received))
      .filter((c) => options.client === undefined || c.client === options.client)
      .map((c) => ({
        ...c,
        violations: c.violations.filter((v) => !options.contractOnly || v.level !== 'advice'),
      }));
    const count = clients.reduce((n, c) => n + c.violations.length, 0);
    return {
      pass: count === 0,
      message: () =>
        count === 0
          ? 'expected client rule violations, found none'
          : `expected no client rule violations, found ${count}:\n${formatFindings(clients)}`,
    };
  },
});

declare module 'vitest' {
  interface Assertion<T> {
    /** The client rules found no violation (judge/); `{ contractOnly: true }` ignores advice. Await it. */
    toHaveNoClientViolations(options?: ClientViolationOptions): Promise<T>;
  }
}
