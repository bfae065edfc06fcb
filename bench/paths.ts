import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The bench runs both from source (tsx, vitest) and compiled (.tmp/bench-build), so it finds
// the repository by its package.json rather than by a fixed number of `..`.
function findRepoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'topics-emulator'
    ) {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the topics-emulator package.json above the bench');
    dir = parent;
  }
}

export const repoRoot = findRepoRoot();
export const emulatorCli = join(repoRoot, 'dist', 'cli', 'topics-emulator.js');
export const emulatorModule = join(repoRoot, 'dist', 'emulator', 'index.js');
/** This file's own folder: beside it sit the child entry points, as .ts or compiled .js. */
export const benchDir = dirname(fileURLToPath(import.meta.url));
/** `.ts` when running from source, `.js` when compiled. */
export const moduleExtension = fileURLToPath(import.meta.url).endsWith('.ts') ? '.ts' : '.js';
/** Node flags a child needs to run the bench's modules the same way this process runs them. */
export const childExecArgv = moduleExtension === '.ts' ? ['--import', 'tsx'] : [];
