import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SettingsError, startEmulator, type RunningEmulator } from '../../emulator/index.js';
import type { Snapshot } from '../../emulator/snapshot/document.js';
import { nodeIo, StateFileError, writeStateFile } from '../../emulator/snapshot/state-file.js';
import { baseUrlOf, runCli } from '../helpers/cli.js';
import { CACHE, clientOf, itemsOf, numbersOf, publishMany, start, waitForWaiting } from '../control/helpers.js';

// --state-file: loaded at start when present, written atomically on a clean shutdown (close(),
// SIGTERM/SIGINT of the CLI); a bad file stops the start with a message naming it.

const dir = mkdtempSync(join(tmpdir(), 'topics-emulator-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(dir, `state-${++n}.json`);

const open_: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(open_.splice(0).map((e) => e.close().catch(() => undefined)));
});
async function emulator(stateFile: string, options: Parameters<typeof start>[0] = {}): Promise<RunningEmulator> {
  const e = await start({ stateFile, ...options });
  open_.push(e);
  return e;
}

const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
const temporaries = () => readdirSync(dir).filter((f) => f.endsWith('.tmp'));

describe('--state-file', () => {
  it('round trip through close() and a new emulator: the same state, and cursors continue without loss', async () => {
    const path = freshPath();
    const first = await emulator(path);
    first.setClock({ setTo: '2031-05-06T07:08:09.000Z' });
    await publishMany(first, 't', 3);
    first.addFault({ operation: 'publish', topic: 'other', status: 500, count: 2 });
    first.revokeToken('gone');
    const page = first.state().topics[0]!.page;
    const before = first.snapshot();
    expect(existsSync(path)).toBe(false);
    await first.close();
    expect(read(path)).toEqual(before);

    const second = await emulator(path);
    expect(second.snapshot()).toEqual(before);
    const client = clientOf(second);
    expect(numbersOf(await itemsOf(await client.subscribe('t', { seq: 1, page })))).toEqual([1, 2, 3]);
    const waiting = client.subscribe('t', { seq: 4, page });
    await waitForWaiting(second, 1);
    await client.publish('t', 'after the restart');
    expect((await itemsOf(await waiting)).items).toEqual([
      { item: { sequence_page: page, topic_sequence_number: 4, value: { text: 'after the restart' } } },
    ]);
  });

  it('starts empty when the file does not exist yet, and writes it on close', async () => {
    const path = freshPath();
    const e = await emulator(path);
    expect(e.state().topics).toEqual([]);
    await publishMany(e, 't', 1);
    await e.close();
    expect(read(path).topics.map((t) => [t.topic, t.messages.length])).toEqual([['t', 1]]);
    expect(temporaries()).toEqual([]);
  });

  it('the state written replaces what --scenario set up at start; the scenario stays for resets', async () => {
    const path = freshPath();
    const scenario = join(dir, 'scenario.yaml');
    writeFileSync(scenario, 'faults:\n  - { status: 503, topic: from-scenario }\n');
    const first = await emulator(path);
    first.addFault({ status: 500, topic: 'from-state' });
    await first.close();
    const second = await emulator(path, { scenario });
    expect(second.faults().map((f) => f.rule.topic)).toEqual(['from-state']);
    second.reset();
    expect(second.faults().map((f) => f.rule.topic)).toEqual(['from-scenario']);
  });

  it('a file that is not a valid snapshot is refused at start, naming the file and the problem', async () => {
    const path = freshPath();
    const e = await emulator(freshPath());
    writeFileSync(path, JSON.stringify({ ...e.snapshot(), version: 9 }));
    const refused = startEmulator({ port: 0, logLevel: 'silent', stateFile: path });
    await expect(refused).rejects.toThrow(SettingsError);
    await expect(refused).rejects.toThrow(
      `State file ${path} is not a valid snapshot: the snapshot.version must be 1.`,
    );
    writeFileSync(path, '{"format": "topics-');
    await expect(startEmulator({ port: 0, logLevel: 'silent', stateFile: path })).rejects.toThrow(
      new RegExp(`^State file ${path} is not valid JSON`),
    );
  });

  it('close() rejects, after closing the server, when the file cannot be written', async () => {
    const e = await start({ stateFile: join(dir, 'no-such-directory', 'state.json') });
    await expect(e.close()).rejects.toThrow(/Cannot write state file .*no-such-directory/);
    await expect(fetch(`${e.url}/_emulator/health`)).rejects.toThrow();
  });
});

describe('writing atomically', () => {
  it('a write that fails halfway leaves the good file as it was, and no temporary file', async () => {
    const path = freshPath();
    const good = await emulator(path);
    await publishMany(good, 't', 2);
    await good.close();
    const saved = readFileSync(path, 'utf8');
    const other = await emulator(freshPath());
    await publishMany(other, 'u', 5);
    const failing = {
      ...nodeIo,
      async create(temporary: string) {
        const file = await open(temporary, 'wx');
        return {
          writeFile: async (text: string) => {
            await file.writeFile(text.slice(0, text.length / 2));
            throw new Error('ENOSPC: no space left on device');
          },
          sync: () => file.sync(),
          close: () => file.close(),
        };
      },
    } as typeof nodeIo;
    await expect(writeStateFile(path, other.snapshot(), failing)).rejects.toThrow(StateFileError);
    expect(readFileSync(path, 'utf8')).toBe(saved);
    expect(temporaries()).toEqual([]);
  });

  it('a temporary file left by a crash is never read: the start loads the good file', async () => {
    const path = freshPath();
    const good = await emulator(path);
    await publishMany(good, 't', 2);
    await good.close();
    writeFileSync(join(dir, `.${path.split('/').pop()}.deadbeef.tmp`), '{"format": "topics-emul');
    const again = await emulator(path);
    expect(numbersOf(await itemsOf(await clientOf(again).subscribe('t', { seq: 1 })))).toEqual([1, 2]);
    rmSync(join(dir, `.${path.split('/').pop()}.deadbeef.tmp`));
  });
});

describe('the CLI', () => {
  it('writes the state file on SIGTERM, and a new process continues from it', async () => {
    const path = freshPath();
    const run = runCli(['--port', '0', '--state-file', path, '--log-level', 'warn']);
    const url = await baseUrlOf(run);
    expect(run.stdout()).toContain(`State:     ${path}`);
    for (const text of ['one', 'two'])
      await fetch(`${url}/topics/${CACHE}/cli`, {
        method: 'POST',
        headers: { authorization: 'topics-emulator-dev-key', 'content-type': 'text/plain' },
        body: text,
      });
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const saved = read(path);
    expect(saved.topics.map((t) => t.messages.map((m) => m.value))).toEqual([[{ text: 'one' }, { text: 'two' }]]);
    const again = await emulator(path);
    expect(numbersOf(await itemsOf(await clientOf(again).subscribe('cli', { seq: 1 })))).toEqual([1, 2]);
  });

  it('refuses to start with a bad state file: exit 2 and a message, not a stack trace', async () => {
    const path = freshPath();
    writeFileSync(path, JSON.stringify({ format: 'something else' }));
    const run = runCli(['--port', '0', '--state-file', path]);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain(`topics-emulator: State file ${path} is not a valid snapshot`);
    expect(run.stderr()).not.toMatch(/\n\s+at /);
  });
});
