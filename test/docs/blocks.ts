import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The code blocks of README.md and docs/*.md, each with what the comment above it says of it:
//
//   <!-- example: shell -->             curl and shell lines, run with bash against an emulator
//   <!-- example: cli -->               `npx topics-emulator ...` / `npx topics-conformance ...` lines, each run
//   <!-- example: starts -->            a command that starts the emulator: run until its banner shows what the block's comments show
//   <!-- example: node -->              a program, run with tsx until it ends (`; prints: TEXT`: until it prints TEXT)
//   <!-- example: vitest -->            a test file, run with vitest
//   <!-- example: elsewhere PATH -->    run by another test or script (PATH names the doc's file)
//   <!-- example: not run (REASON) -->  what a test cannot do here (an account, docker, sudo, minutes)
//
// The comment is HTML, so the rendered page does not show it.

export const MODES = ['shell', 'cli', 'starts', 'node', 'vitest', 'elsewhere', 'not run'] as const;
export type Mode = (typeof MODES)[number];

export interface CodeBlock {
  /** README.md or docs/<page>.md */
  file: string;
  /** The fence's line, 1-based. */
  line: number;
  lang: string;
  code: string;
  /** undefined: the block has no example comment. */
  mode: Mode | undefined;
  /** elsewhere: the path; not run: the reason; node: what it prints. */
  argument: string;
}

/** Languages whose blocks are examples to run (the others show files or output). */
export const RUNNABLE = new Set(['sh', 'bash', 'shell', 'js', 'mjs', 'ts']);

const ANNOTATION = /^<!-- example: (shell|cli|starts|node|vitest|elsewhere|not run)(?:(?: |; prints: )(.*?))? -->$/;

export function codeBlocks(root: string): CodeBlock[] {
  const files = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  return files.flatMap((file) => blocksOf(file, readFileSync(join(root, file), 'utf8')));
}

export function blocksOf(file: string, markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w+)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    if (end === -1) break;
    // The comment is the closest non-blank line above the fence.
    let above = i - 1;
    while (above >= 0 && lines[above]!.trim() === '') above--;
    const annotation = above >= 0 ? ANNOTATION.exec(lines[above]!.trim()) : null;
    blocks.push({
      file,
      line: i + 1,
      lang: open[1]!,
      code: lines.slice(i + 1, end).join('\n') + '\n',
      mode: annotation?.[1] as Mode | undefined,
      argument: (annotation?.[2] ?? '').replace(/^\((.*)\)$/, '$1'),
    });
    i = end;
  }
  return blocks;
}
