// The OpenAPI document as the suite reads it: which statuses and content types each
// operation may answer, and the JSON schemas of the bodies. Read at run time from
// openapi/topics.yaml, so the suite never keeps a second copy of the document's rules.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

export type Operation = 'publish' | 'subscribe';

export interface OperationContract {
  /** Statuses the document lists for the operation, as numbers. */
  statuses: Set<number>;
  /** Content types the document lists per status ('' when the status has no body). */
  contentTypes: Map<number, string[]>;
}

export interface SchemaProblem {
  path: string;
  message: string;
}

export interface Contract {
  path: string;
  operations: Record<Operation, OperationContract>;
  /**
   * The subscribe body as the contract documents it: `items`, elements with an `item` or a
   * `discontinuity`, integer fields. Binary representation and "exactly one member" are
   * left to their own rules, so one fault fails one rule.
   */
  checkSubscribeBody(body: unknown): SchemaProblem[];
  /** The subscribe body against the emulator's full schema (value is exactly text or binary). */
  checkSubscribeBodyStrict(body: unknown): SchemaProblem[];
  /** The emulator's error body `{code, message}`; the live service's is not published. */
  checkErrorBody(body: unknown): SchemaProblem[];
}

/** Finds openapi/topics.yaml from this file, whether run from sources or from dist/. */
export function defaultContractPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    const candidate = join(dir, 'openapi', 'topics.yaml');
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error('openapi/topics.yaml not found next to the conformance suite');
}

type Schema = Record<string, unknown>;

/** Deep copy of a dereferenced schema, swapping the given sub-schemas (matched by identity). */
function replaceSchemas(schema: unknown, swaps: Map<unknown, unknown>, seen = new Map<unknown, unknown>()): unknown {
  if (swaps.has(schema)) return swaps.get(schema);
  if (schema === null || typeof schema !== 'object') return schema;
  if (seen.has(schema)) return seen.get(schema);
  const copy: Record<string, unknown> | unknown[] = Array.isArray(schema) ? [] : {};
  seen.set(schema, copy);
  for (const [key, value] of Object.entries(schema)) {
    (copy as Record<string, unknown>)[key] = replaceSchemas(value, swaps, seen);
  }
  return copy;
}

function compile(ajv: Ajv2020, schema: unknown): (body: unknown) => SchemaProblem[] {
  const validate: ValidateFunction = ajv.compile(schema as Schema);
  return (body) => {
    if (validate(body)) return [];
    return (validate.errors ?? []).map((error) => ({
      path: error.instancePath || '/',
      message: `${error.message ?? 'invalid'}${error.params && Object.keys(error.params).length > 0 ? ` ${JSON.stringify(error.params)}` : ''}`,
    }));
  };
}

function operationContract(operation: Record<string, unknown>): OperationContract {
  const responses = (operation.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
  const statuses = new Set<number>();
  const contentTypes = new Map<number, string[]>();
  for (const [code, response] of Object.entries(responses)) {
    const status = Number(code);
    if (!Number.isInteger(status)) continue;
    statuses.add(status);
    contentTypes.set(status, Object.keys(response.content ?? {}));
  }
  return { statuses, contentTypes };
}

export async function loadContract(path = defaultContractPath()): Promise<Contract> {
  const absolute = resolve(path);
  // validate() checks the document and dereferences it: one object per $ref target,
  // which lets the documented-level schema swap sub-schemas by identity below.
  const api = (await SwaggerParser.validate(absolute)) as unknown as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
    components: { schemas: Record<string, Schema> };
  };
  const pathItem = api.paths['/topics/{cacheName}/{topicName}'];
  if (!pathItem?.post || !pathItem.get) throw new Error(`${absolute}: no publish/subscribe operations`);
  const schemas = api.components.schemas;
  const subscribeResponse = schemas.SubscribeResponse;
  const element = schemas.SubscribeElement;
  const value = schemas.Value;
  const error = schemas.Error;
  if (!subscribeResponse || !element || !value || !error) throw new Error(`${absolute}: missing component schemas`);

  // The contract shows the text representation only, and "exactly one of item or
  // discontinuity" has its own rule: relax both so the schema rule reports the rest.
  const relaxValue = new Map<unknown, unknown>([[value, { type: 'object', properties: { text: { type: 'string' } } }]]);
  const relaxedElement = { anyOf: replaceSchemas(element.oneOf, relaxValue) };
  const documented = replaceSchemas(subscribeResponse, new Map<unknown, unknown>([[element, relaxedElement]]));

  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  return {
    path: absolute,
    operations: {
      publish: operationContract(pathItem.post),
      subscribe: operationContract(pathItem.get),
    },
    checkSubscribeBody: compile(ajv, documented),
    checkSubscribeBodyStrict: compile(ajv, subscribeResponse),
    checkErrorBody: compile(ajv, error),
  };
}
