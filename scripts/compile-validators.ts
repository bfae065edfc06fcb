// Generates the validators the emulator needs at start as plain code (Ajv's standalone mode),
// so that no JSON Schema is compiled when it starts (Ajv was a third of start-up):
//   emulator/generated/topics-validators.ts: the path, query and header parameters of each
//     operation in openapi/topics.yaml, with the options fastify's own validator compiler uses
//     (@fastify/ajv-compiler's defaults and ajv-formats: same coercion, same errors);
//   emulator/generated/settings-validator.ts: the settings' schema (emulator/settings-table.ts), every error reported.
// `npm run openapi:compile` writes them; a test fails when a committed copy is stale, and
// another checks the topics validators against fastify's compiler on generated inputs.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv as AjvInstance, Options } from 'ajv';
import { operationRoutes, validatorName, type OpenApiDocument } from '../emulator/openapi-routes.js';
import { settingsSchema } from '../emulator/settings-table.js';

const require = createRequire(import.meta.url);
const { Ajv } = require('ajv') as typeof import('ajv');
const standaloneCode = (
  require('ajv/dist/standalone') as { default: (ajv: AjvInstance, exports: Record<string, string>) => string }
).default;
const addFormats = require('ajv-formats') as (ajv: AjvInstance) => AjvInstance;
/** What fastify's default validator compiler passes to Ajv (it adds ajv-formats too). */
export const fastifyAjvOptions = require('@fastify/ajv-compiler/lib/default-ajv-options.js') as Options;

const root = fileURLToPath(new URL('..', import.meta.url));
export const validatorFiles = {
  topics: `${root}emulator/generated/topics-validators.ts`,
  settings: `${root}emulator/generated/settings-validator.ts`,
} as const;

// Ajv counts a string's length in code points (its `unicode` option, which fastify keeps on), by
// walking the string, for every maxLength and minLength: twice per name on every request. A
// count of code points lies between half the string's UTF-16 length and that length, so the
// length alone settles the check unless the string is near the bound: only then is the walk
// made. The verdicts stay exactly Ajv's (the generated-validators test compares them with
// fastify's own compiler on astral-plane names of every length around the bounds).
export function lengthChecksFirst(code: string): string {
  const helper = /const (\w+) = require\("ajv\/dist\/runtime\/ucs2length"\)\.default;/.exec(code)?.[1];
  if (helper === undefined) return code;
  const longer = new RegExp(`${helper}\\((\\w+)\\) > (\\d+)`, 'g');
  const shorter = new RegExp(`${helper}\\((\\w+)\\) < (\\d+)`, 'g');
  const rewritten = code
    .replace(longer, (_, data: string, limit: string) => `(${data}.length > ${limit} && ${helper}(${data}) > ${limit})`)
    .replace(
      shorter,
      (_, data: string, limit: string) =>
        `(${data}.length < ${limit} || (${data}.length < ${2 * Number(limit)} && ${helper}(${data}) < ${limit}))`,
    );
  // Every count is now behind a length check; a form this does not know would leave one bare.
  const bare = new RegExp(`(?<!&& )${helper}\\(`, 'g');
  if (bare.test(rewritten)) throw new Error(`compile-validators: a ${helper}() call this post-pass does not know`);
  return rewritten;
}

// Ajv's validators take their options as a destructured parameter defaulting to `{}`: a new empty
// object on every call without options, which is how fastify calls them (three per request). One
// frozen empty object serves as that default instead; the destructuring reads the same values.
export function sharedDefaultOptions(code: string): string {
  const signature = /(function validate\d+\(data, \{[^}]*\})=\{\}\)/g;
  if (!signature.test(code)) throw new Error('compile-validators: no validator signature this post-pass knows');
  const rewritten = code.replace(signature, '$1=NO_OPTIONS)');
  const strict = '"use strict";';
  const body = rewritten.startsWith(strict) ? rewritten.slice(strict.length) : rewritten;
  return `${strict}const NO_OPTIONS = Object.freeze({});${body}`;
}

function moduleSource(from: string, ajv: AjvInstance, exports: Record<string, string>): string {
  // Ajv's ESM output still require()s its small runtime helpers (ucs2length for maxLength).
  return [
    '// @ts-nocheck',
    `// Generated from ${from} by 'npm run openapi:compile' (scripts/compile-validators.ts). Do not edit.`,
    "import { createRequire } from 'node:module';",
    'const require = createRequire(import.meta.url);',
    sharedDefaultOptions(lengthChecksFirst(standaloneCode(ajv, exports))),
    '',
  ].join('\n');
}

export function topicsValidatorsSource(document: OpenApiDocument): string {
  const ajv = new Ajv({ ...fastifyAjvOptions, code: { source: true, esm: true } });
  addFormats(ajv);
  const exports: Record<string, string> = {};
  for (const route of operationRoutes(document)) {
    for (const [part, schema] of Object.entries(route.schema)) {
      const name = validatorName(route.operationId, part);
      ajv.addSchema({ $id: name, ...(schema as object) });
      exports[name] = name;
    }
  }
  return moduleSource('openapi/topics.yaml', ajv, exports);
}

export function settingsValidatorSource(): string {
  const ajv = new Ajv({ allErrors: true, code: { source: true, esm: true } });
  ajv.addSchema({ $id: 'settings', ...settingsSchema });
  return moduleSource('emulator/settings-table.ts', ajv, { settings: 'settings' });
}
