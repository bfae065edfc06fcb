import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cliCommand } from '../helpers/cli.js';
import { freePort } from './redis-server.js';

// The README's replicas without Docker, run as written: its shell block, with free ports for
// Redis and the two replicas, its logs in a temporary directory, and the CLI as the other tests
// run it (dist/ when it is fresh).

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The first `sh` block of the "Several replicas (Redis)" section of docs/persistence-and-replicas.md. */
function replicasBlock(): string {
  const readme = readFileSync(join(root, 'docs', 'persistence-and-replicas.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Several replicas (Redis)'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block)
    throw new Error('no sh block in the section "Several replicas (Redis)" of docs/persistence-and-replicas.md');
  return block[1]!;
}

/** Whether any process of the group led by `pid` is alive. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

let script: ChildProcess | undefined;
let dir: string | undefined;

afterEach(() => {
  // Whatever the block left running (it ran in a process group of its own).
  if (script?.pid !== undefined && groupAlive(script.pid)) process.kill(-script.pid, 'SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
  script = dir = undefined;
});

describe("the README's replicas without Docker", () => {
  it('a message published on one replica reaches the subscriber waiting on the other; kill stops all three', async () => {
    const block = replicasBlock();
    expect(block).toContain('node dist/cli/topics-emulator.js');
    // The replicas' ports keep the gaps printed (each replica also takes the next port for gRPC):
    // printed ports that clash clash here too.
    const [redis, base] = [await freePort(), await freePort()];
    const a = base;
    const b = base + 10;
    dir = mkdtempSync(join(tmpdir(), 'te-readme-'));
    const command = cliCommand.map((part) => `'${part}'`).join(' ');
    // The block's own paths first: the checkout itself may live under /tmp (a fresh clone in CI).
    const text = block
      .replaceAll('/tmp/', `${dir}/`)
      .replace(/\b6379\b/g, String(redis))
      .replace(/\b45\d\d\b/g, (port) => String(base + Number(port) - 4545))
      .replaceAll('node dist/cli/topics-emulator.js', command);
    const child = spawn('bash', ['-c', text], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    script = child;
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const [code] = (await once(child, 'close')) as [number | null]; // its output read to the end
    clearTimeout(timer);
    expect(code, `${out}\n${err}`).toBe(0);
    const answer = JSON.parse(out.trim()) as { items: { item: Record<string, unknown> }[] };
    expect(answer.items).toEqual([
      { item: expect.objectContaining({ topic_sequence_number: 1, value: { text: 'hello' } }) },
    ]);
    for (const port of [a, b])
      expect(readFileSync(join(dir, `replica-${port}.log`), 'utf8')).toContain(`redis://127.0.0.1:${redis}`);
    // `kill $(jobs -p)` stopped the replicas and Redis: the group empties.
    const deadline = Date.now() + 10_000;
    while (groupAlive(child.pid!) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(groupAlive(child.pid!)).toBe(false);
  }, 70_000);
});
