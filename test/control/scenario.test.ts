import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SettingsError, type RunningEmulator } from '../../emulator/index.js';
import { parseScenario } from '../../emulator/scenario/load.js';
import { baseUrlOf, runCli } from '../helpers/cli.js';
import { CACHE, clientOf, itemsOf, numbersOf, publishMany, start, waitForWaiting } from './helpers.js';

// Scenario files: the fixtures validate and apply; --scenario applies one at start and after
// every reset; a broken file stops the start with a message that names the problem.

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = join(root, 'fixtures/scenarios');
const fixtureFiles = readdirSync(fixtures).filter((f) => /\.(ya?ml|json)$/.test(f));
const dir = mkdtempSync(join(tmpdir(), 'topics-emulator-scenario-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('the scenario fixtures', () => {
  it('are there', () => {
    expect(fixtureFiles.length).toBeGreaterThanOrEqual(5);
  });

  it.each(fixtureFiles)('%s is valid and applies through POST /_emulator/scenario', async (file) => {
    const text = readFileSync(join(fixtures, file), 'utf8');
    const scenario = parseScenario(text, file);
    emulator = await start();
    const type = file.endsWith('.json') ? 'application/json' : 'application/yaml';
    const response = await clientOf(emulator).control('POST', '/scenario', text, { 'content-type': type });
    expect(response.status, await response.clone().text()).toBe(200);
    const applied = (await response.json()) as {
      faults: unknown[];
      topicResets: unknown[];
      tokenWithdrawals: unknown[];
    };
    expect(applied.faults).toHaveLength(scenario.faults?.length ?? 0);
    expect(applied.topicResets).toHaveLength(scenario.topicResets?.length ?? 0);
    expect(applied.tokenWithdrawals).toHaveLength(scenario.tokens?.length ?? 0);
  });
});

describe('--scenario: the issue example', () => {
  const scenario = join(fixtures, 'issue-example.yaml');

  it('topic t resets after message 5; the 3rd subscribe on t gets 429 with Retry-After 1; token X expires at +30 s', async () => {
    emulator = await start({ scenario });
    const client = clientOf(emulator);
    const { token } = await emulator.issueToken({
      permissions: [{ role: 'publishsubscribe', cache: '*' }],
      tokenId: 'X',
    });

    const firstPage = emulator.state().topics[0]!.page;
    await publishMany(emulator, 't', 5);
    // Message 5 was published on the first page, then the page changed.
    const newPage = emulator.state().topics[0]!.page;
    expect(newPage).toBeGreaterThan(firstPage);
    // The new page is empty: the resume waits for its first message, then gets it after a discontinuity.
    const pending = client.subscribe('t', { seq: 6, page: firstPage }, { token });
    await waitForWaiting(emulator, 1);
    await publishMany(emulator, 't', 1);
    const resumed = await itemsOf(await pending);
    expect(resumed.items[0]).toEqual({
      discontinuity: { last_topic_sequence: 5, new_topic_sequence: 1, new_sequence_page: newPage },
    });
    expect(numbersOf(resumed)).toEqual([`d1@${newPage}`, 1]);

    // That was the 1st subscribe on t; the 3rd gets 429.
    expect(numbersOf(await itemsOf(await client.subscribe('t', { seq: 1 }, { token })))).toEqual([1]);
    const third = await client.subscribe('t', { seq: 1 }, { token });
    expect([third.status, third.headers.get('retry-after')]).toEqual([429, '1']);
    expect((await client.subscribe('t', { seq: 1 }, { token })).status).toBe(200);

    // Token X expires 30 s (of the emulator's clock) after the start.
    const at = Date.parse(emulator.state().scheduled.tokenWithdrawals[0]!.at);
    emulator.setClock({ setTo: at - 1 });
    expect((await client.publish('t', 'm', { token })).status).toBe(204);
    emulator.setClock({ setTo: at });
    const expired = await client.publish('t', 'm', { token });
    expect([expired.status, ((await expired.json()) as { code: string }).code]).toEqual([401, 'expired_token']);
  });

  it('is applied again by every reset, its times counted from the reset', async () => {
    emulator = await start({ scenario });
    const fresh = emulator.state();
    expect(fresh.faults).toHaveLength(1);
    expect(fresh.scheduled.topicResets).toEqual([
      expect.objectContaining({ cache: CACHE, topic: 't', afterSequenceNumber: 5 }),
    ]);
    expect(fresh.scheduled.tokenWithdrawals).toEqual([
      expect.objectContaining({ tokenId: 'X', how: 'expired', scheduled: true }),
    ]);
    emulator.removeFault('f1');
    await publishMany(emulator, 't', 5);
    emulator.reset();
    const again = emulator.state();
    expect(again.faults.map((f) => f.rule)).toEqual(fresh.faults.map((f) => f.rule));
    expect(again.scheduled.topicResets).toEqual([expect.objectContaining({ afterSequenceNumber: 5 })]);
    expect(again.scheduled.tokenWithdrawals).toHaveLength(1);
  });
});

describe('broken scenarios', () => {
  it.each([
    ['not-yaml.yaml', 'faults: [', /not valid YAML or JSON/],
    ['list.yaml', '- a\n- b\n', /must hold an object/],
    ['typo.yaml', 'fautls: []\n', /the scenario has an unknown member 'fautls' \(did you mean 'faults'\?\)/],
    // A rule of the fault's own (it needs an effect) fails first; the typo is what to name.
    [
      'fault-typo.yaml',
      'faults:\n  - operation: publish\n    statsu: 429\n',
      /the scenario.faults.0 has an unknown member 'statsu' \(did you mean 'status'\?\)/,
    ],
    [
      'bad-rule.json',
      '{"faults": [{"status": 500, "drop": true}]}',
      /the scenario.faults.0: status and drop cannot be combined/,
    ],
  ])('%s stops the start with a SettingsError naming the problem', async (name, text, message) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    const attempt = start({ scenario: file });
    await expect(attempt).rejects.toThrow(SettingsError);
    await expect(attempt).rejects.toThrow(message);
  });

  it('a missing file is named', async () => {
    await expect(start({ scenario: join(dir, 'missing.yaml') })).rejects.toThrow(
      /Cannot read scenario file .*missing\.yaml/,
    );
  });

  it('a scenario naming an unknown cache answers 404 over HTTP', async () => {
    emulator = await start();
    const response = await clientOf(emulator).control('POST', '/scenario', {
      topicResets: [{ cache: 'nope', topic: 't' }],
    });
    expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([404, 'cache_not_found']);
  });
});

describe('the command line', () => {
  it('refuses to listen beyond loopback with the control plane on and no admin key (exit 2, clear message)', async () => {
    const cli = runCli(['--host', '0.0.0.0', '--port', '0']);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toMatch(/beyond loopback.*--admin-key.*--control off/);
  });

  it('--scenario, --limits and --chaos-seed (here as environment variables) take effect', async () => {
    const cli = runCli(['--port', '0', '--log-level', 'silent'], {
      TOPICS_EMULATOR_SCENARIO: join(fixtures, 'issue-example.yaml'),
      TOPICS_EMULATOR_LIMITS: 'account',
      TOPICS_EMULATOR_LIMIT_OPS_PER_SECOND: '50',
      TOPICS_EMULATOR_CHAOS_SEED: '7',
      TOPICS_EMULATOR_CHAOS_RATE: '0',
      TOPICS_EMULATOR_ADMIN_KEY: 'cli-admin-key',
    });
    try {
      const url = await baseUrlOf(cli);
      expect(cli.stdout()).toMatch(/Chaos: +seed 7/);
      const state = (await (
        await fetch(`${url}/_emulator/state`, { headers: { 'x-emulator-admin-key': 'cli-admin-key' } })
      ).json()) as {
        faults: unknown[];
        limits: { enabled: boolean; operationsPerSecond: number };
        chaos: { enabled: boolean; seed: number };
      };
      expect(state.faults).toHaveLength(1);
      expect(state.limits).toMatchObject({ enabled: true, operationsPerSecond: 50 });
      expect(state.chaos).toMatchObject({ enabled: true, seed: 7 });
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });
});
