import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../emulator/index.js';

// Probes: a FIFO given as --state-file hung start-up forever and /dev/zero read 608 MB first; a
// SIGKILL during a write left `.NAME.<hex>.tmp` files (up to the snapshot's size) that nothing
// removed; after loading a state whose fault ids were near their bound, adding a rule wrote a
// state the next start refused ("faults.1.id must match pattern").

const dir = mkdtempSync(join(tmpdir(), 'state-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Start-up, refused with a reason or started, well within a bound (a hang fails the race). */
async function startUp(stateFile: string): Promise<string> {
  const outcome = startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', stateFile }).then(
    async (emulator) => {
      await emulator.close();
      return 'started';
    },
    (error: Error) => error.message,
  );
  const hung = new Promise<string>((resolve) => setTimeout(() => resolve('hung'), 5000).unref());
  return Promise.race([outcome, hung]);
}

describe('--state-file', () => {
  it('refuses a FIFO at once instead of waiting for a writer', async () => {
    const fifo = join(dir, 'state.fifo');
    execFileSync('mkfifo', [fifo]);
    expect(await startUp(fifo)).toMatch(/state\.fifo is not a regular file/);
  });

  it('refuses /dev/zero at once instead of reading it', async () => {
    expect(await startUp('/dev/zero')).toMatch(/\/dev\/zero is not a regular file/);
  });

  it('removes the temporary files a cut-short write left, and nothing else', async () => {
    const state = join(dir, 'state.json');
    const stale = join(dir, '.state.json.0123456789ab.tmp');
    const other = join(dir, '.state.json.backup');
    writeFileSync(stale, '{"half":');
    writeFileSync(other, 'mine');
    expect(await startUp(state)).toBe('started');
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(other)).toBe(true);
  });

  it('after loading fault ids at their bound, refuses another rule and writes a state that loads back', async () => {
    const state = join(dir, 'faults.json');
    const first = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', stateFile: state });
    const rule = { operation: 'publish', status: 500, count: 1 } as const;
    first.addFault(rule);
    const snapshot = first.snapshot();
    await first.close();
    // The same state, its rule numbered at the bound of the document's FaultId.
    writeFileSync(
      state,
      JSON.stringify({ ...snapshot, faults: snapshot.faults.map((f) => ({ ...f, id: 'f999999999' })) }),
    );
    const second = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', stateFile: state });
    expect(() => second.addFault(rule)).toThrow(/Fault rule ids are used up \(f999999999 was the last\)/);
    await second.close();
    expect(JSON.parse(readFileSync(state, 'utf8')).faults.map((f: { id: string }) => f.id)).toEqual(['f999999999']);
    expect(await startUp(state)).toBe('started');
  });
});
