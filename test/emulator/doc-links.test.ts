import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every page a user reads (the README, docs/, ARCHITECTURE.md, the Redis design note) links only
// to files that exist, and every page of docs/ is reachable from the README.

const root = fileURLToPath(new URL('../../', import.meta.url));
const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'));
const pages = [
  'README.md',
  'ARCHITECTURE.md',
  'BENCHMARKS.md',
  'emulator/redis/README.md',
  ...docs.map((f) => `docs/${f}`),
];

/** The relative link targets of a Markdown page (no scheme, no bare anchor), without their anchors. */
function localLinks(page: string): string[] {
  const text = readFileSync(join(root, page), 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.split('#')[0]!);
}

describe('the documentation', () => {
  it.each(pages)('%s links only to files that exist', (page) => {
    const missing = localLinks(page).filter((target) => !existsSync(resolve(root, dirname(page), target)));
    expect(missing).toEqual([]);
  });

  it('reaches every page of docs/ from the README, directly or through another page', () => {
    const reached = new Set<string>();
    const queue = ['README.md'];
    while (queue.length) {
      const page = queue.shift()!;
      for (const target of localLinks(page)) {
        const path = resolve(root, dirname(page), target).slice(root.length);
        if (path.startsWith('docs/') && path.endsWith('.md') && !reached.has(path)) {
          reached.add(path);
          queue.push(path);
        }
      }
    }
    expect(docs.map((f) => `docs/${f}`).filter((p) => !reached.has(p))).toEqual([]);
  });
});
