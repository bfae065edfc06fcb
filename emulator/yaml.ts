import { createRequire } from 'node:module';

// YAML (scenario files and bodies, config files, exam plans) is parsed by the yaml package,
// loaded on first use: importing it costs ~50 ms, and most runs never read YAML.
//
// The yaml package parses recursively: a kilobyte of `[` nests a thousand levels deep, overflows
// the stack, and can leave V8 unable to compile a regular expression afterwards (the next parse
// kills the process). So what it is given is bounded first, in one linear scan: flow
// collections (`[`, `{`) nested at most MAX_FLOW_DEPTH deep, block content indented at most
// MAX_INDENT columns (block nesting needs a column per level at least), and at most
// MAX_ALIAS_COUNT aliases (the package's own bound, against alias bombs).
const require = createRequire(import.meta.url);
let yaml: typeof import('yaml') | undefined;

/** Far beyond any scenario, config or plan (their deepest member is six levels down). */
export const MAX_FLOW_DEPTH = 64;
export const MAX_INDENT = 256;
export const MAX_ALIAS_COUNT = 100;

export class YamlBoundsError extends Error {
  override name = 'YamlBoundsError';
}

/** Throws YamlBoundsError when the text nests deeper than the bounds allow. Quoted text and comments do not count. */
export function checkYamlBounds(text: string): void {
  let depth = 0;
  let quote = '';
  let column = 0;
  let indenting = true;
  let comment = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') {
      column = 0;
      indenting = true;
      comment = false;
      continue;
    }
    column++;
    if (comment) continue;
    if (quote) {
      if (quote === '"' && c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (indenting) {
      // Indentation and the block markers that nest (`- `, `? `) count as columns of nesting.
      if (c === ' ' || c === '-' || c === '?' || c === '\t') {
        if (column > MAX_INDENT)
          throw new YamlBoundsError(
            `YAML indented deeper than ${MAX_INDENT} columns is refused (line ${lineOf(text, i)})`,
          );
        continue;
      }
      indenting = false;
    }
    if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) comment = true;
    else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') {
      if (++depth > MAX_FLOW_DEPTH)
        throw new YamlBoundsError(
          `YAML nested more than ${MAX_FLOW_DEPTH} levels deep is refused (line ${lineOf(text, i)})`,
        );
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Parses YAML, a superset of JSON: one parser reads both. Throws YamlBoundsError or the yaml package's error. */
export function parseYaml(text: string): unknown {
  checkYamlBounds(text);
  yaml ??= require('yaml') as typeof import('yaml');
  return yaml.parse(text, { maxAliasCount: MAX_ALIAS_COUNT });
}
