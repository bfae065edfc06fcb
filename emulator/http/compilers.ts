import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';
import { validatorName, type OpenApiDocument } from '../openapi-routes.js';
import { routesOf } from './operations.js';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/**
 * Fastify's schema compilers, replaced: the topics routes' parameters are checked by the code
 * generated from the document at build time (scripts/compile-validators.ts), so neither Ajv nor
 * fast-json-stringify is loaded or compiles anything at start. The control
 * plane sets its own compiler (control/scope.ts); no route has a response schema.
 */
export function generatedCompilers(
  document: OpenApiDocument,
  generated: Readonly<Record<string, unknown>>,
): CompilersFactory {
  const operationIds = new Map(routesOf(document).map((route) => [`${route.method} ${route.url}`, route.operationId]));
  const validatorCompiler: FastifySchemaCompiler<unknown> = ({ method, url, httpPart }) => {
    const validate = generated[validatorName(operationIds.get(`${method} ${url}`) ?? '', httpPart ?? '')];
    if (typeof validate !== 'function')
      throw new Error(`no generated validator for ${method} ${url} ${httpPart}: run npm run openapi:compile`);
    return validate as ReturnType<FastifySchemaCompiler<unknown>>;
  };
  // fastify's types describe Ajv's compile function; a fastify schema compiler is what it calls.
  return {
    buildValidator: () => validatorCompiler,
    buildSerializer: () => () => {
      throw new Error('no route of the emulator has a response schema');
    },
  } as unknown as CompilersFactory;
}
