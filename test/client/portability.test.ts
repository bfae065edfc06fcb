import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The client must run in browsers and edge runtimes, and against the live service: it may
// import only its own modules (no node:*, no packages, nothing of the emulator), and types
// (erased when compiled) generated from the documents.
const clientDir = join(import.meta.dirname, '../../client');
const sources = readdirSync(clientDir).filter((name) => name.endsWith('.ts'));

describe('client/ portability', () => {
  it('has sources to check', () => {
    expect(sources).toContain('index.ts');
  });

  it.each(sources)('%s imports only sibling modules and uses no Node globals', (name) => {
    const source = readFileSync(join(clientDir, name), 'utf8');
    const generatedTypes = /^import type \{[^}]*\} from '\.\.\/openapi\/generated\/[\w-]+-types\.js';$/gm;
    const runtime = source.replace(generatedTypes, '');
    const specifiers = [...runtime.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
    for (const specifier of specifiers) expect(specifier).toMatch(/^\.\/[\w-]+\.js$/);
    const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    expect(code).not.toMatch(/\b(Buffer|process|require|__dirname)\b/);
  });
});
