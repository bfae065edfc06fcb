import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

// A script run in a fresh Node process with V8's own flags (natives syntax, traces), for tests
// that read what V8 did: V8 prints to the process's C stdout, so it goes into a file, which takes
// it whole (a pipe may not).

/** The repository's root, with a trailing slash: scripts import the emulator's sources from it. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** A folder for the probes' scripts and outputs; `remove` deletes it (afterAll). */
export function probeFolder(name: string): {
  run: (file: string, script: string, flags: string[]) => Promise<string>;
  remove: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), `topics-emulator-${name}-`));
  return {
    async run(file, script, flags) {
      const path = join(dir, `${file}.mts`);
      writeFileSync(path, script);
      const output = join(dir, `${file}.txt`);
      const fd = openSync(output, 'w');
      try {
        const child = spawn(process.execPath, [...flags, '--import', 'tsx', path], {
          cwd: repoRoot,
          stdio: ['ignore', fd, 'inherit'],
          timeout: 60_000,
        });
        const [code] = (await once(child, 'exit')) as [number | null];
        expect(code).toBe(0);
      } finally {
        closeSync(fd);
      }
      return readFileSync(output, 'utf8');
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
