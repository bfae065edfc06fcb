import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Where the package's own files are (package.json, dist/dashboard/, the Redis scripts), found
// from wherever this code runs: the sources (tsx, vitest), dist/ as tsc wrote it, or the CLI's
// bundle (dist/cli/), whose chunks sit at another depth than the modules they came from.

const NAME = 'topics-emulator';

function findRoot(): { root: string; version: string } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === NAME) return { root: dir, version: pkg.version ?? '0.0.0' };
    } catch {
      // no package.json of ours at this level
    }
    const up = dirname(dir);
    if (up === dir) return { root: dirname(fileURLToPath(import.meta.url)), version: '0.0.0' };
    dir = up;
  }
}

const found = findRoot();

/** The package's root folder (where its package.json is). */
export const packageRoot: string = found.root;

/** The package's version, from its package.json. */
export const packageVersion: string = found.version;

/** Whether this code runs compiled (dist/, or the CLI's bundle) rather than from the sources. */
export const compiled: boolean = import.meta.url.endsWith('.js');
