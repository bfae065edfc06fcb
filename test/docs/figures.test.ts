import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFigure, kib } from '../helpers/figures.js';

// The figures of docs/ that a measurement here can write (the package's and the image's are
// written by test:package and test:container, the conformance counts by the docs' own run).

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'dashboard-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the figures of docs/', () => {
  it('dashboard.md: the bundle and its gzipped size, as `npm run build:dashboard` builds it', () => {
    const printed = execFileSync(process.execPath, [join(root, 'scripts/build-dashboard.mjs'), out], {
      encoding: 'utf8',
    });
    const [, total, gzipped] = /bytes (\d+) (\d+)/.exec(printed)!;
    expect(checkFigure('dashboard-bundle', Number(total), kib)).toBeUndefined();
    expect(checkFigure('dashboard-gzip', Number(gzipped), kib)).toBeUndefined();
  });
});
