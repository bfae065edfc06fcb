// Generates the TypeScript types of each openapi/*.yaml (openapi-typescript): the schemas of
// the control plane and of the Topics API, once, for the emulator, the typed client, the
// testcontainers module and the conformance suite alike. Each schema is also exported under
// its own name (`FaultRuleInput`, `SubscribeResponse`, ...). Members with a default stay
// optional: these are the shapes a caller sends, the defaults are applied when validated.
// `npm run openapi:compile` writes openapi/generated/<name>-types.ts; a test fails when a
// committed copy is stale.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));

export function typesPath(name: string): string {
  return `${root}openapi/generated/${name}-types.ts`;
}

export async function typesSource(name: string): Promise<string> {
  const document = parse(readFileSync(`${root}openapi/${name}.yaml`, 'utf8')) as {
    components?: { schemas?: Record<string, unknown> };
  };
  const ast = await openapiTS(structuredClone(document) as never, {
    defaultNonNullable: false,
    exportType: false,
    silent: true,
  });
  const aliases = Object.keys(document.components?.schemas ?? {}).map(
    (schema) => `export type ${schema} = components['schemas']['${schema}'];`,
  );
  return [
    `// Generated from openapi/${name}.yaml by 'npm run openapi:compile' (scripts/compile-types.ts). Do not edit.`,
    astToString(ast).trimEnd(),
    '',
    '// Each schema under its own name.',
    ...aliases,
    '',
  ].join('\n');
}
