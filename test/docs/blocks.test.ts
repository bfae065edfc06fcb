import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { blocksOf, codeBlocks, RUNNABLE } from './blocks.js';

// How a docs page says how its examples are run: the comment closest above each fence.

const page = [
  '# A page',
  '',
  '<!-- example: shell -->',
  '```sh',
  'curl -s $URL/_emulator/health',
  '```',
  '',
  '<!-- example: node; prints: hello -->',
  '',
  '```js',
  "console.log('hello');",
  '```',
  'Some text.',
  '```ts',
  'const unsaid = 1;',
  '```',
  '<!-- example: not run (needs an account) -->',
  '```sh',
  'npx topics-conformance --base-url https://example',
  '```',
  '<!-- example: elsewhere test/x.test.ts -->',
  '```yaml',
  'a: 1',
  '```',
].join('\n');

describe('blocksOf', () => {
  it('reads each block with the comment above it, its mode and argument, and leaves an unsaid one unsaid', () => {
    expect(blocksOf('docs/p.md', page).map((b) => [b.line, b.lang, b.mode, b.argument])).toEqual([
      [4, 'sh', 'shell', ''],
      [10, 'js', 'node', 'hello'],
      [14, 'ts', undefined, ''],
      [18, 'sh', 'not run', 'needs an account'],
      [22, 'yaml', 'elsewhere', 'test/x.test.ts'],
    ]);
    expect(blocksOf('docs/p.md', page)[0]!.code).toBe('curl -s $URL/_emulator/health\n');
  });

  it('does not take a comment of another kind, or one with an unknown mode, as a block’s', () => {
    const odd = ['<!-- example: sometimes -->', '```sh', 'true', '```', '<!-- note -->', '```sh', 'true', '```'].join(
      '\n',
    );
    expect(blocksOf('docs/p.md', odd).map((b) => b.mode)).toEqual([undefined, undefined]);
  });
});

describe('the README and docs/', () => {
  it('say above every shell and code block how it is run (npm run test:docs runs them)', () => {
    const blocks = codeBlocks(fileURLToPath(new URL('../..', import.meta.url)));
    const unsaid = blocks.filter((b) => RUNNABLE.has(b.lang) && b.mode === undefined).map((b) => `${b.file}:${b.line}`);
    expect(unsaid, 'add <!-- example: ... --> above each (test/docs/blocks.ts)').toEqual([]);
    expect(blocks.filter((b) => b.mode !== undefined).length).toBeGreaterThan(30);
  });
});
