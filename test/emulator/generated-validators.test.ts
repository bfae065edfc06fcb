import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documents } from '../../emulator/http/app.js';
import * as topicsValidators from '../../emulator/generated/topics-validators.js';
import { operationRoutes, validatorName } from '../../emulator/openapi-routes.js';
import {
  lengthChecksFirst,
  settingsValidatorSource,
  sharedDefaultOptions,
  topicsValidatorsSource,
  validatorFiles,
} from '../../scripts/compile-validators.js';

// The emulator validates parameters and settings with code generated at build time, not with
// schemas compiled at start. These tests keep the generated code honest: up to date with its
// sources, and answering exactly as fastify's own validator compiler would.

type Validate = ((data: unknown) => boolean) & {
  errors?: Array<{ instancePath: string; keyword: string; message?: string }> | null;
};

const require = createRequire(import.meta.url);
// fastify's default validator compiler, built as fastify builds it (no ajv option given).
const AjvCompiler = require('@fastify/ajv-compiler') as () => (
  external: object,
  options: object,
) => (input: { schema: object }) => Validate;
const fastifyCompiler = AjvCompiler()({}, { customOptions: {} });

describe('generated validators', () => {
  it('emulator/generated/topics-validators.ts is up to date (run npm run openapi:compile)', () => {
    expect(readFileSync(validatorFiles.topics, 'utf8')).toBe(topicsValidatorsSource(documents.topics));
  });

  it('emulator/generated/settings-validator.ts is up to date (run npm run openapi:compile)', () => {
    expect(readFileSync(validatorFiles.settings, 'utf8')).toBe(settingsValidatorSource());
  });

  const parts = operationRoutes(documents.topics).flatMap((route) =>
    Object.entries(route.schema).map(([part, schema]) => ({
      name: validatorName(route.operationId, part),
      schema: schema as object,
    })),
  );

  it('has one validator for each part of each operation of the contract', () => {
    expect(parts.map((p) => p.name).sort()).toEqual(Object.keys(topicsValidators).sort());
  });

  // What a router hands a validator: strings, repeated query parameters as arrays, odd values.
  // Names of astral-plane characters too, with code-point counts on both sides of the bounds (1 and
  // 255) and UTF-16 lengths up to twice that: the generated length checks look at `.length` first.
  const nearBound = (unit: fc.Arbitrary<string>) =>
    fc.oneof(fc.array(unit, { maxLength: 2 }), fc.array(unit, { minLength: 250, maxLength: 260 }));
  const scalar = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.string({ unit: 'binary', maxLength: 300 }),
    nearBound(fc.constantFrom('a', '\u{1F600}', '\u00e9')).map((units) => units.join('')),
    fc.constantFrom('0', '-1', '1e3', '9007199254740992', 'Infinity', ' 7', '', 'x'),
    fc.integer(),
    fc.constant(null),
  );
  const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }));
  const keys = fc.constantFrom(
    'cacheName',
    'topicName',
    'token',
    'sequence_number',
    'sequence_page',
    'authorization',
    'other',
  );
  const input = fc.dictionary(keys, value, { maxKeys: 5 });

  it.each(parts)(
    '$name answers as fastify would: same verdict, same coercion, same first error',
    ({ name, schema }) => {
      const generated = (topicsValidators as Record<string, Validate>)[name]!;
      const reference = fastifyCompiler({ schema: structuredClone(schema) });
      fc.assert(
        fc.property(input, (data) => {
          const ours = structuredClone(data);
          const theirs = structuredClone(data);
          const verdict = generated(ours);
          expect(verdict).toBe(reference(theirs));
          expect(ours).toEqual(theirs);
          if (!verdict)
            expect(generated.errors?.[0]).toMatchObject({
              instancePath: reference.errors?.[0]?.instancePath,
              keyword: reference.errors?.[0]?.keyword,
              message: reference.errors?.[0]?.message,
            });
        }),
        { numRuns: 300 },
      );
    },
  );
});

// The post-passes over Ajv's output: each rewrites only the forms it knows and refuses the rest,
// so a new Ajv that writes them differently fails `npm run openapi:compile` instead of shipping
// code that skips a check.
describe("the post-passes over Ajv's output", () => {
  const helper = 'const func2 = require("ajv/dist/runtime/ucs2length").default;';

  it('puts a length check before every code-point count, leaving code without one as it is', () => {
    const rewritten = lengthChecksFirst(`${helper}if(func2(data0) > 255){}if(func2(data1) < 1){}`);
    expect(rewritten).toContain('(data0.length > 255 && func2(data0) > 255)');
    expect(rewritten).toContain('(data1.length < 1 || (data1.length < 2 && func2(data1) < 1))');
    expect(lengthChecksFirst('if(x){}')).toBe('if(x){}');
  });

  it('refuses a code-point count in a form it does not know', () => {
    expect(() => lengthChecksFirst(`${helper}if(func2(data0) >= 255){}`)).toThrow(/does not know/);
  });

  it('gives every validator one frozen default options object, and refuses code with no validator it knows', () => {
    const code =
      '"use strict";function validate10(data, {instancePath=""}={}){}function validate11(data, {rootData=data}={}){}';
    const rewritten = sharedDefaultOptions(code);
    expect(rewritten.startsWith('"use strict";const NO_OPTIONS = Object.freeze({});')).toBe(true);
    expect(rewritten.match(/=NO_OPTIONS\)/g)).toHaveLength(2);
    expect(rewritten).not.toContain('={})');
    expect(() => sharedDefaultOptions('function validate10(data, options){}')).toThrow(/no validator signature/);
  });
});
