// Generates the validators the emulator needs at start as plain code (Ajv's standalone mode),
// so that no JSON Schema is compiled when it starts (issue 6: Ajv was a third of start-up):
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

function moduleSource(from: string, ajv: AjvInstance, exports: Record<string, string>): string {
  // Ajv's ESM output still require()s its small runtime helpers (ucs2length for maxLength).
  return [
    '// @ts-nocheck',
    `// Generated from ${from} by 'npm run openapi:compile' (scripts/compile-validators.ts). Do not edit.`,
    "import { createRequire } from 'node:module';",
    'const require = createRequire(import.meta.url);',
    standaloneCode(ajv, exports),
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
