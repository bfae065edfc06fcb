import type { FastifySchema, HTTPMethods } from 'fastify';

// Turns an OpenAPI document (compiled, every $ref resolved) into fastify route definitions:
// the URL, and JSON schemas for path, query and header parameters and JSON bodies (their
// validators are generated at build time: scripts/compile-validators.ts); and what other parts
// need of the paths (CORS methods, the 405 answer). No rule of the document is restated here.

export type BodyKind = 'text' | 'binary';

export interface OperationRoute {
  operationId: string;
  method: HTTPMethods;
  url: string;
  schema: FastifySchema;
  /** Request body media types and how each is delivered (x-emulator-delivered-as). */
  bodyKinds: ReadonlyMap<string, BodyKind>;
  /** The operation asks for no credential (`security: []`), e.g. health. */
  open: boolean;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: Record<string, unknown>;
}

interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { 'x-emulator-delivered-as'?: BodyKind; schema?: Record<string, unknown> }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown> & { parameters?: Parameter[] }>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

function objectSchema(parameters: Parameter[], nameOf: (p: Parameter) => string): Record<string, unknown> | undefined {
  if (parameters.length === 0) return undefined;
  const required = parameters.filter((p) => p.required).map(nameOf);
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [nameOf(p), p.schema])),
    ...(required.length ? { required } : {}),
  };
}

/**
 * The name of the validator generated at build time for one part of one operation
 * (`publish_querystring`): scripts/compile-validators.ts writes it, the emulator looks it up.
 */
export const validatorName = (operationId: string, httpPart: string) => `${operationId}_${httpPart}`;

/** A document's path in fastify's form: `{param}` becomes `:param`. */
export const routeUrl = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** Each path of the documents (fastify's `:param` form) with the methods its operations use. */
export function methodsByPath(documents: readonly OpenApiDocument[]): Map<string, HTTPMethods[]> {
  const byPath = new Map<string, HTTPMethods[]>();
  for (const route of documents.flatMap(operationRoutes)) {
    byPath.set(route.url, [...(byPath.get(route.url) ?? []), route.method]);
  }
  return byPath;
}

/** A document's path as a pattern of the raw URL: each `{param}` one capture, maybe empty. */
export function pathPattern(path: string): RegExp {
  const parts = path.split(/\{\w+\}/).map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('([^/?#]*)')}/?(?:[?#]|$)`);
}

/** How each path's operations read in a message, in the document's order: `POST to publish`. */
export function operationsOfPath(document: OpenApiDocument, path: string): string[] {
  return Object.entries(document.paths[path] ?? {})
    .filter(([method, operation]) => (METHODS as readonly string[]).includes(method) && operation)
    .map(([method, operation]) => `${method.toUpperCase()} to ${(operation as Operation).operationId ?? method}`);
}

export function operationRoutes(document: OpenApiDocument): OperationRoute[] {
  const routes: OperationRoute[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation?.operationId) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])];
      const where = (place: Parameter['in']) => parameters.filter((p) => p.in === place);
      const schema: FastifySchema = {};
      const params = objectSchema(where('path'), (p) => p.name);
      const querystring = objectSchema(where('query'), (p) => p.name);
      const headers = objectSchema(where('header'), (p) => p.name.toLowerCase());
      if (params) schema.params = params;
      if (querystring) schema.querystring = querystring;
      if (headers) schema.headers = headers;
      const content = operation.requestBody?.content ?? {};
      // A JSON body the handler reads as data (not a message delivered as sent) is validated
      // by fastify against the document's schema; its other media types share that schema.
      const json = content['application/json'];
      if (json?.schema && json['x-emulator-delivered-as'] === undefined) schema.body = json.schema;
      routes.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        url: routeUrl(path),
        schema,
        bodyKinds: new Map(
          Object.entries(content).map(([type, media]) => [type, media['x-emulator-delivered-as'] ?? 'binary']),
        ),
        open: Array.isArray(operation.security) && operation.security.length === 0,
      });
    }
  }
  return routes;
}
