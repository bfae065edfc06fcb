import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { EmulatorError, type FaultRuleInput, type RunningEmulator } from '../../emulator/index.js';
import { clientOf, itemsOf, numbersOf, publishMany, start } from './helpers.js';

// The same controls everywhere: each fault kind installed through the control plane (HTTP), the
// programmatic API, a scenario posted at run time and a scenario file given at start, and
// probed the same way.

interface Kind {
  rule: FaultRuleInput;
  /** Runs before the rule is installed (through a scenario file: before it too, on a fresh topic). */
  setup?: (emulator: RunningEmulator) => Promise<void>;
  probe: (emulator: RunningEmulator) => Promise<void>;
}

const kinds: Record<string, Kind> = {
  'status 429 with Retry-After, then recovery': {
    rule: { operation: 'publish', topic: 't', status: 429, retryAfterSeconds: 1, count: 1 },
    async probe(emulator) {
      const client = clientOf(emulator);
      const refused = await client.publish('t');
      expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '1']);
      expect((await client.publish('t')).status).toBe(204);
    },
  },
  'delay, then normal handling': {
    rule: { operation: 'publish', topic: 't', delayMs: 5, count: 1 },
    async probe(emulator) {
      expect((await clientOf(emulator).publish('t')).status).toBe(204);
      expect(emulator.faults()).toEqual([]);
      expect(emulator.state().topics.find((t) => t.topic === 't')!.lastSequenceNumber).toBe(1);
    },
  },
  'dropped connection': {
    rule: { operation: 'publish', topic: 't', drop: true, count: 1 },
    async probe(emulator) {
      const client = clientOf(emulator);
      await expect(client.publish('t')).rejects.toThrow();
      expect((await client.publish('t')).status).toBe(204);
    },
  },
  'subscribe after delivering N items': {
    rule: { operation: 'subscribe', topic: 't', afterItems: 2, status: 500, count: 1 },
    async probe(emulator) {
      const client = clientOf(emulator);
      await publishMany(emulator, 't', 3);
      expect(numbersOf(await itemsOf(await client.subscribe('t', { seq: 1 })))).toEqual([1, 2]);
      expect((await client.subscribe('t', { seq: 3 })).status).toBe(500);
      expect(numbersOf(await itemsOf(await client.subscribe('t', { seq: 3 })))).toEqual([3]);
    },
  },
  'subscribe while waiting': {
    rule: { operation: 'subscribe', topic: 't', whileWaiting: true, status: 503, retryAfterSeconds: 3, count: 1 },
    async probe(emulator) {
      const answer = await clientOf(emulator).subscribe('t');
      expect([answer.status, answer.headers.get('retry-after')]).toEqual([503, '3']);
    },
  },
};

type Surface = (rule: FaultRuleInput) => Promise<RunningEmulator>;

const dir = mkdtempSync(join(tmpdir(), 'topics-emulator-scenarios-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const surfaces: Record<string, Surface> = {
  async 'control plane (POST /_emulator/faults)'(rule) {
    const emulator = await start();
    expect((await clientOf(emulator).control('POST', '/faults', rule)).status).toBe(201);
    return emulator;
  },
  async 'programmatic (emulator.addFault)'(rule) {
    const emulator = await start();
    expect(emulator.addFault(rule).id).toBe('f1');
    return emulator;
  },
  async 'scenario at run time (POST /_emulator/scenario, YAML)'(rule) {
    const emulator = await start();
    const response = await clientOf(emulator).control(
      'POST',
      '/scenario',
      stringify({ name: 'one fault', faults: [rule] }),
      { 'content-type': 'application/yaml' },
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { faults: unknown[] }).faults).toHaveLength(1);
    return emulator;
  },
  async 'scenario file (--scenario)'(rule) {
    const file = join(dir, `scenario-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify({ faults: [rule] }));
    return start({ scenario: file });
  },
};

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe.each(Object.entries(surfaces))('through the %s', (_surface, install) => {
  it.each(Object.entries(kinds))('%s', async (_kind, { rule, probe }) => {
    emulator = await install(rule);
    await probe(emulator);
  });
});

describe('the programmatic API', () => {
  it('checks input against the same document and throws EmulatorError with the same code', async () => {
    emulator = await start();
    const expectInvalid = (fn: () => unknown, message: RegExp) => {
      try {
        fn();
        expect.unreachable('should throw');
      } catch (error) {
        expect(error).toBeInstanceOf(EmulatorError);
        expect((error as EmulatorError).code).toBe('invalid_body');
        expect((error as EmulatorError).status).toBe(400);
        expect((error as EmulatorError).message).toMatch(message);
      }
    };
    expectInvalid(() => emulator!.addFault({ status: 418 as never }), /status must be one of/);
    expectInvalid(() => emulator!.setClock({ mode: 'real', setTo: 0 }), /setTo freezes the clock/);
    expectInvalid(() => emulator!.setLimits({ operationsPerSecond: -1 }), /operationsPerSecond must be >= 1/);
    expectInvalid(() => emulator!.resetTopic('default-cache', '', {}), /must NOT have fewer than 1 characters/);
    expectInvalid(
      () => emulator!.applyScenario({ faults: [{ drop: true, status: 500 }] } as never),
      /status and drop cannot be combined/,
    );
    await expect(emulator.issueToken({ permissions: [], ttlSeconds: 60 })).rejects.toThrow(
      /permissions must NOT have fewer than 1 items/,
    );
    expect(() => emulator!.removeFault('f9')).toThrow(
      expect.objectContaining({ code: 'fault_not_found', status: 404 }),
    );
    expect(() => emulator!.resetTopic('nope', 't')).toThrow(expect.objectContaining({ code: 'cache_not_found' }));
  });

  it('answers with the same shapes as the control plane', async () => {
    emulator = await start();
    const client = clientOf(emulator);
    const viaApi = emulator.addFault({ status: 500, topic: 'a' });
    const viaHttp = await (await client.control('POST', '/faults', { status: 500, topic: 'a' })).json();
    expect(Object.keys(viaHttp as object).sort()).toEqual(Object.keys(viaApi).sort());
    // Clock and limit usage move with time; everything else is the same object either way.
    const timeless = (state: object) => JSON.parse(JSON.stringify({ ...state, clock: null, limits: null })) as unknown;
    expect(timeless((await (await client.control('GET', '/state')).json()) as object)).toEqual(
      timeless(emulator.state()),
    );
  });
});
