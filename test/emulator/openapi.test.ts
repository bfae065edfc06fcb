import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { documents } from '../../emulator/http/app.js';
import { bindHandlers } from '../../emulator/http/operations.js';
import { controlPlaneOnlyCodes, errorRegistry } from '../../emulator/errors.js';
import type { LongPolls } from '../../emulator/http/waiting.js';
import { topicsHandlers } from '../../emulator/http/handlers/index.js';
import { cacheHandlers } from '../../emulator/http/handlers/cache.js';
import { operationRoutes, type OpenApiDocument } from '../../emulator/openapi-routes.js';
import {
  compileDocument,
  controlEnumsPath,
  controlEnumsSource,
  documents as documentNames,
  generatedPath,
} from '../../scripts/compile-openapi.js';
import { typesPath, typesSource } from '../../scripts/compile-types.js';
import type { EmulatorContext } from '../../emulator/context.js';

const yamlOf = (name: string) =>
  parse(readFileSync(new URL(`../../openapi/${name}.yaml`, import.meta.url), 'utf8')) as Record<string, any>;

describe('the OpenAPI documents', () => {
  it.each(documentNames)('%s.yaml is a valid OpenAPI 3.1 document', async (name) => {
    const api = (await SwaggerParser.validate(yamlOf(name) as never)) as { openapi: string };
    expect(api.openapi).toBe('3.1.0');
  });

  it.each(documentNames)('openapi/generated/%s.json is up to date (run npm run openapi:compile)', async (name) => {
    expect(readFileSync(generatedPath(name), 'utf8')).toBe(await compileDocument(name));
  });

  it.each(documentNames)('openapi/generated/%s-types.ts is up to date (run npm run openapi:compile)', async (name) => {
    expect(readFileSync(typesPath(name), 'utf8')).toBe(await typesSource(name));
  });

  it("openapi/generated/control-enums.ts (the dashboard's enums) is up to date (run npm run openapi:compile)", async () => {
    expect(readFileSync(controlEnumsPath, 'utf8')).toBe(controlEnumsSource(await compileDocument('control')));
  });

  it("names both operations of the contract on the one path, and the cache HTTP API's three beside them", () => {
    const routes = operationRoutes(documents.topics);
    expect(routes.map((r) => `${r.method} ${r.url} ${r.operationId}`).sort()).toEqual([
      'DELETE /cache/:cacheName cacheDelete',
      'GET /cache/:cacheName cacheGet',
      'GET /topics/:cacheName/:topicName subscribe',
      'POST /topics/:cacheName/:topicName publish',
      'PUT /cache/:cacheName cacheSet',
    ]);
  });

  it('every operationId of the service contract has exactly one handler', () => {
    // Only built, never called: a handler reads at most the settings then.
    const handlers = [
      ...topicsHandlers({ settings: {} } as EmulatorContext, {} as LongPolls),
      ...cacheHandlers({ settings: {} } as EmulatorContext),
    ];
    const bound = bindHandlers(documents.topics, handlers);
    expect(bound.map((b) => b.route.operationId).sort()).toEqual(handlers.map((h) => h.operationId).sort());
    expect(() => bindHandlers(documents.topics, handlers.slice(1))).toThrow(/missing/);
    expect(() => bindHandlers(documents.topics, [...handlers, { ...handlers[0]!, operationId: 'extra' }])).toThrow(
      /unknown extra/,
    );
    expect(() => bindHandlers(documents.topics, [...handlers, handlers[0]!])).toThrow(/differ/);
  });

  it('publish takes the listed media types and ranges, each delivered as the document says', () => {
    const publish = operationRoutes(documents.topics).find((r) => r.operationId === 'publish')!;
    expect(Object.fromEntries(publish.bodyKinds)).toEqual({
      'text/plain': 'text',
      'application/octet-stream': 'binary',
      'application/json': 'text',
      'application/x-www-form-urlencoded': 'text',
      'text/*': 'text',
      'application/*+json': 'text',
      'octet-stream': 'binary',
    });
  });

  it('the error registry and the Error schema list the same codes', () => {
    const schema = yamlOf('topics').components.schemas.Error;
    // The control plane's own codes are listed in control.yaml instead (test/control/documents.test.ts).
    const serviceCodes = Object.keys(errorRegistry).filter((code) => !controlPlaneOnlyCodes.has(code as never));
    expect([...schema.properties.code.enum].sort()).toEqual(serviceCodes.sort());
  });

  it('declares every status the service routes can answer, with the JSON error body', () => {
    const doc = yamlOf('topics');
    const declared = new Set<string>();
    for (const op of Object.values(doc.paths['/topics/{cacheName}/{topicName}'] as Record<string, any>)) {
      for (const status of Object.keys(op.responses ?? {})) declared.add(status);
    }
    // Statuses only the router or the connection answers (unknown route, method, malformed HTTP, a
    // request that did not arrive in time) are not operation responses.
    const routerOnly = new Set([
      'route_not_found',
      'method_not_allowed',
      'request_header_too_large',
      'invalid_request',
      'request_timeout',
    ]);
    for (const [code, { status }] of Object.entries(errorRegistry)) {
      if (!routerOnly.has(code)) expect(declared, `${code} -> ${status}`).toContain(String(status));
    }
  });

  it('records every decision of the emulator as an x-emulator-* note that docs/differences.md lists', () => {
    const notes = JSON.stringify(yamlOf('topics')).match(/"x-emulator-[a-z-]+"/g) ?? [];
    expect(notes.length).toBeGreaterThanOrEqual(15);
    const readme = readFileSync(new URL('../../docs/differences.md', import.meta.url), 'utf8');
    for (const note of new Set(notes.map((n) => n.slice(1, -1)))) {
      if (note === 'x-emulator-delivered-as') continue; // a machine-readable marker, not a decision
      expect(readme, `docs/differences.md mentions ${note}`).toContain(note);
    }
  });

  it('is the document the emulator serves from', () => {
    expect((documents.topics as OpenApiDocument & { info: { title: string } }).info.title).toBe('Topics HTTP API');
  });
});
