import { readFileSync } from 'node:fs';

// The package's version, read from its package.json (found from here whether this file runs
// from the source tree or from dist/).
function readVersion(): string {
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'topics-emulator' && pkg.version) return pkg.version;
    } catch {
      // not at this level
    }
  }
  return '0.0.0';
}

export const version = readVersion();
