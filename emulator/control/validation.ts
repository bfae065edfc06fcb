import { createRequire } from 'node:module';
import type { Ajv, ErrorObject } from 'ajv';
import controlDocument from '../../openapi/generated/control.json' with { type: 'json' };
import type { components } from '../../openapi/generated/control-types.js';
import { EmulatorError } from '../errors.js';
import { nearest } from '../nearest.js';

// The control plane's bodies are checked against openapi/control.yaml, by one Ajv instance for
// both the HTTP routes (as fastify's validator) and the programmatic API, so the two cannot
// drift. Strict about input: no type coercion, unknown members are errors, not dropped.
//
// Ajv is loaded, and each schema compiled, on first use: a run that never calls the control
// plane never pays for it (it was a third of the start-up time).

const require = createRequire(import.meta.url);
let ajv: Ajv | undefined;

export function controlAjv(): Ajv {
  if (ajv) return ajv;
  const { Ajv: AjvClass } = require('ajv') as typeof import('ajv');
  const addFormats = require('ajv-formats') as (instance: Ajv) => Ajv;
  ajv = new AjvClass({
    strict: false, // OpenAPI keywords (example, x-emulator-*) are annotations here
    allErrors: false,
    useDefaults: true,
    coerceTypes: false,
    removeAdditional: false,
    verbose: true, // errors carry their schema, whose x-emulator-message explains compound rules
  });
  return addFormats(ajv);
}

type ControlSchemas = components['schemas'];
export type ControlSchemaName = keyof ControlSchemas;

function where(error: ErrorObject): string {
  return error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : '';
}

const COMPOUND = new Set(['anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'allOf']);

// With allErrors off, a broken compound rule (if/then, not, anyOf) reports only its innermost
// failure. The schema on the error's path that carries an x-emulator-message says what the
// rule as a whole means; the deepest such one whose rule contains the failure wins. A simple
// schema (no compound rule of its own) may carry one for any of its keywords.
function explanation(root: unknown, error: ErrorObject): { message: string; leaf: boolean } | undefined {
  const segments = error.schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean);
  let node: unknown = root;
  let found: { message: string; leaf: boolean } | undefined;
  for (let i = 0; i <= segments.length && node !== null && typeof node === 'object'; i++) {
    const message = (node as Record<string, unknown>)['x-emulator-message'];
    const rest = segments.slice(i);
    const simple = rest.length === 1 && !Object.keys(node).some((k) => COMPOUND.has(k));
    if (typeof message === 'string' && (simple || rest.some((s) => COMPOUND.has(s) && s !== 'allOf')))
      found = { message, leaf: simple };
    node = i < segments.length ? (node as Record<string, unknown>)[decodeURIComponent(segments[i]!)] : undefined;
  }
  return found;
}

/** The value at an error's instance path. */
function valueAt(value: unknown, error: ErrorObject): unknown {
  let node = value;
  for (const segment of error.instancePath.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[decodeURIComponent(segment.replaceAll('~1', '/').replaceAll('~0', '~'))];
  }
  return node;
}

/**
 * A member the object's schema does not know, when a compound rule of that schema failed first
 * (a typo, `statsu: 429`, reads as "a fault needs an effect" otherwise): named, with the member
 * it is nearest.
 */
function unknownMember(root: unknown, error: ErrorObject, value: unknown): string | undefined {
  const segments = error.schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean);
  const compound = segments.findIndex((s) => COMPOUND.has(s));
  if (compound < 0) return undefined;
  let node: unknown = root;
  for (const segment of segments.slice(0, compound)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[decodeURIComponent(segment)];
  }
  const schema = node as { properties?: Record<string, unknown>; additionalProperties?: unknown } | undefined;
  const object = valueAt(value, error);
  if (!schema?.properties || schema.additionalProperties !== false || object === null || typeof object !== 'object')
    return undefined;
  const known = Object.keys(schema.properties);
  const stray = Object.keys(object).find((key) => !known.includes(key));
  if (stray === undefined) return undefined;
  const near = nearest(stray, known);
  return `has an unknown member '${stray}'${near ? ` (did you mean '${near}'?)` : ''}`;
}

/** One readable sentence for what is wrong, preferring the document's own explanation. */
export function describeProblem(
  root: unknown,
  errors: readonly ErrorObject[],
  subject = 'body',
  value?: unknown,
): string {
  const error = errors[0];
  if (!error) return `${subject} is invalid`;
  const at = where(error) ? `${subject}.${where(error)}` : subject;
  const stray = value === undefined ? undefined : unknownMember(root, error, value);
  if (stray) return `${at} ${stray}`;
  const explained = explanation(root, error);
  if (explained) {
    // A compound rule's explanation speaks of the object holding it: drop the member the failure names.
    const holder =
      explained.leaf || error.keyword === 'required' || error.keyword === 'not' || error.keyword === 'anyOf'
        ? at
        : at.replace(/\.[^.]*$/, '');
    return `${holder}${explained.leaf ? '' : ':'} ${explained.message}`;
  }
  switch (error.keyword) {
    case 'additionalProperties': {
      const member = String(error.params.additionalProperty);
      const schema = error.parentSchema as { properties?: Record<string, unknown> } | undefined;
      const near = schema?.properties ? nearest(member, Object.keys(schema.properties)) : undefined;
      return `${at} has an unknown member '${member}'${near ? ` (did you mean '${near}'?)` : ''}`;
    }
    case 'required':
      return `${at} needs '${String(error.params.missingProperty)}'`;
    case 'enum':
      return `${at} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'minProperties':
      return `${at} must set at least one member`;
    case 'const':
      return `${at} must be ${JSON.stringify(error.params.allowedValue)}`;
    default:
      return `${at} ${error.message ?? 'is invalid'}`;
  }
}

type Check = (value: unknown, subject?: string) => string | undefined;

// The document is loaded once per process; its schema objects are compiled once, not per start.
const compiled = new WeakMap<object, Check>();

/** A check for one schema: undefined when the value is valid (defaults applied in place), else what is wrong. */
export function compileCheck(schema: object): Check {
  let check = compiled.get(schema);
  if (!check) {
    const validate = controlAjv().compile(schema);
    check = (value, subject) =>
      validate(value) ? undefined : describeProblem(schema, validate.errors ?? [], subject, value);
    compiled.set(schema, check);
  }
  return check;
}

const checks = new Map<string, (value: unknown) => string | undefined>();

/**
 * Checks a value against one of the document's schemas (applying its defaults), or throws 400:
 * invalid_body, or for what came in the query string, invalid_parameter.
 */
export function checked<N extends ControlSchemaName>(
  name: N,
  value: unknown,
  from: 'body' | 'query' = 'body',
): ControlSchemas[N] {
  let check = checks.get(name);
  if (!check) checks.set(name, (check = compileCheck(controlDocument.components.schemas[name])));
  const copy = value === undefined ? {} : structuredClone(value);
  const problem = check(copy);
  if (problem && from === 'query')
    throw new EmulatorError(
      'invalid_parameter',
      `Invalid request parameter: ${problem.replace(/^body\b/, 'querystring')}.`,
    );
  if (problem) throw new EmulatorError('invalid_body', `The request body is invalid: ${problem}.`);
  return copy as ControlSchemas[N];
}
