// Vitest helpers for projects that test a Topics client against the emulator in-process.
// `useTopicsEmulator()` gives each test file an emulator and a clean one for every test;
// `topicsEmulatorGlobalSetup()` starts one for the whole run, shared by every worker.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startEmulator, type EmulatorSettings, type RunningEmulator } from '../emulator/index.js';

export interface TopicsEmulatorHandle {
  /** The running emulator: its url, apiKey and every control method (reset, addFault, setClock, ...). */
  readonly emulator: RunningEmulator;
  readonly url: string;
  readonly apiKey: string;
}

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
    running = await startEmulator({ port: 0, logLevel: 'silent', ...options });
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
  };
}

/** What a global setup provides to tests: `inject('topicsEmulator')`. */
export interface ProvidedTopicsEmulator {
  url: string;
  apiKey: string;
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
    const emulator = await startEmulator({ port: 0, logLevel: 'silent', ...options });
    project.provide('topicsEmulator', { url: emulator.url, apiKey: emulator.apiKey });
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
