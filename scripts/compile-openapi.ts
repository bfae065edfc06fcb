// Compiles each openapi/*.yaml into openapi/generated/*.json: validated, with every $ref
// resolved; its TypeScript types (compile-types.ts); and the validators generated from them
// (compile-validators.ts). The emulator imports the JSON at start-up (parsing YAML and
// resolving refs there cost ~350 ms); tests regenerate each file and fail when the committed
// copy is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse } from 'yaml';
import { typesPath, typesSource } from './compile-types.js';
import type { OpenApiDocument } from '../emulator/openapi-routes.js';
import { settingsValidatorSource, topicsValidatorsSource, validatorFiles } from './compile-validators.js';

export const documents = ['topics', 'control'] as const;
const root = fileURLToPath(new URL('..', import.meta.url));

export async function compileDocument(name: (typeof documents)[number]): Promise<string> {
  const source = parse(readFileSync(`${root}openapi/${name}.yaml`, 'utf8')) as Record<string, unknown>;
  await SwaggerParser.validate(structuredClone(source) as never);
  const resolved = await SwaggerParser.dereference(source as never);
  const generated = {
    'x-generated': `Generated from openapi/${name}.yaml by 'npm run openapi:compile'. Do not edit.`,
    ...resolved,
  };
  return `${JSON.stringify(generated, null, 2)}\n`;
}

/** The scenario file's JSON Schema, for editors: the control document's `Scenario`, standalone. */
export function scenarioSchema(compiledControl: string): string {
  const document = JSON.parse(compiledControl) as { components: { schemas: { Scenario: Record<string, unknown> } } };
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $comment:
      "Generated from openapi/control.yaml (components.schemas.Scenario) by 'npm run openapi:compile'. Do not edit.",
    title: 'topics-emulator scenario',
    ...document.components.schemas.Scenario,
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/**
 * The control document's enums the dashboard offers in its forms, as a small module: its bundle
 * imports these instead of the whole document (esbuild cannot drop the rest of a JSON file).
 */
export function controlEnumsSource(compiledControl: string): string {
  type Enum = { enum: unknown[] };
  type Schemas = { FaultRuleInput: { properties: { status: Enum; code: Enum } }; Operation: Enum; ChaosKind: Enum };
  const { schemas } = (JSON.parse(compiledControl) as { components: { schemas: Schemas } }).components;
  const constant = (name: string, values: unknown[]) => `export const ${name} = ${JSON.stringify(values)} as const;\n`;
  return [
    "// Generated from openapi/control.yaml by 'npm run openapi:compile'. Do not edit.\n",
    '// The enums the dashboard offers in its forms (a bundle imports these, not the whole document).\n\n',
    '/** FaultRuleInput.status */\n',
    constant('faultStatuses', schemas.FaultRuleInput.properties.status.enum),
    '/** FaultRuleInput.code */\n',
    constant('faultCodes', schemas.FaultRuleInput.properties.code.enum),
    '/** Operation: the service operations a rule or chaos applies to */\n',
    constant('operations', schemas.Operation.enum),
    '/** ChaosKind */\n',
    constant('chaosKinds', schemas.ChaosKind.enum),
  ].join('');
}

export const controlEnumsPath = `${root}openapi/generated/control-enums.ts`;

export function generatedPath(name: string): string {
  return `${root}openapi/generated/${name}.json`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const name of documents) {
    const compiled = await compileDocument(name);
    writeFileSync(generatedPath(name), compiled);
    console.log(`openapi/generated/${name}.json written`);
    writeFileSync(typesPath(name), await typesSource(name));
    console.log(`openapi/generated/${name}-types.ts written`);
    if (name === 'control') {
      writeFileSync(generatedPath('scenario.schema'), scenarioSchema(compiled));
      console.log('openapi/generated/scenario.schema.json written');
      writeFileSync(controlEnumsPath, controlEnumsSource(compiled));
      console.log('openapi/generated/control-enums.ts written');
    }
    if (name === 'topics') {
      writeFileSync(validatorFiles.topics, topicsValidatorsSource(JSON.parse(compiled) as OpenApiDocument));
      console.log('emulator/generated/topics-validators.ts written');
    }
  }
  writeFileSync(validatorFiles.settings, settingsValidatorSource());
  console.log('emulator/generated/settings-validator.ts written');
}
