import { createRequire } from 'node:module';

// YAML (scenario files and bodies, config files) is parsed by the yaml package, loaded on first
// use: importing it costs ~50 ms, and most runs never read YAML (issue 6, start-up).
const require = createRequire(import.meta.url);
let yaml: typeof import('yaml') | undefined;

/** Parses YAML, a superset of JSON: one parser reads both. Throws the yaml package's error. */
export function parseYaml(text: string): unknown {
  yaml ??= require('yaml') as typeof import('yaml');
  return yaml.parse(text);
}
