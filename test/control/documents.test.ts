import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { documents } from '../../emulator/http/app.js';
import { bindHandlers } from '../../emulator/http/operations.js';
import type { EmulatorControls } from '../../emulator/control/controls.js';
import { controlHandlers } from '../../emulator/control/index.js';
import { compileCheck } from '../../emulator/control/validation.js';
import { operationRoutes } from '../../emulator/openapi-routes.js';
import { controlPlaneOnlyCodes, errorRegistry } from '../../emulator/errors.js';
import { compileDocument, generatedPath, scenarioSchema } from '../../scripts/compile-openapi.js';

// openapi/control.yaml against the code that serves it and the registry its errors come from.

const yamlOf = (name: string) =>
  parse(readFileSync(new URL(`../../openapi/${name}.yaml`, import.meta.url), 'utf8')) as Record<string, any>;
const control = yamlOf('control');

describe('openapi/control.yaml', () => {
  it('every operation has exactly one handler', () => {
    const handlers = controlHandlers({} as EmulatorControls);
    expect(
      bindHandlers(documents.control, handlers)
        .map((b) => b.route.operationId)
        .sort(),
    ).toEqual(handlers.map((h) => h.operationId).sort());
  });

  it('every operation but health and the TLS authority is protected by the admin key scheme; those two are open', () => {
    expect(control.security).toEqual([{ adminKey: [] }]);
    for (const [path, item] of Object.entries(control.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === 'parameters') continue;
        expect(operation.security, `${method} ${path}`).toEqual(
          path === '/_emulator/health' || path === '/_emulator/tls/ca.pem' ? [] : undefined,
        );
      }
    }
  });

  it('every schema of every control route compiles (they compile on first use, not at start)', () => {
    const parts = operationRoutes(documents.control).flatMap((route) =>
      Object.entries(route.schema).map(([part, schema]) => ({
        at: `${route.operationId} ${part}`,
        schema: schema as object,
      })),
    );
    expect(parts.length).toBeGreaterThan(10);
    for (const { at, schema } of parts) expect(() => compileCheck(schema), at).not.toThrow();
  });

  it('every request body is JSON with a schema (fastify validates it)', () => {
    for (const item of Object.values(control.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(item)) {
        if (operation?.requestBody) expect(operation.requestBody.content['application/json'].schema).toBeDefined();
      }
    }
  });

  it('the Error enums of the two documents together are the one registry; control-only codes stay out of the service contract', () => {
    const service: string[] = yamlOf('topics').components.schemas.Error.properties.code.enum;
    const plane: string[] = control.components.schemas.Error.properties.code.enum;
    expect(new Set([...service, ...plane])).toEqual(new Set(Object.keys(errorRegistry)));
    for (const code of controlPlaneOnlyCodes) {
      expect(service).not.toContain(code);
      expect(plane).toContain(code);
    }
  });

  it('openapi/generated/scenario.schema.json is up to date (run npm run openapi:compile)', async () => {
    expect(readFileSync(generatedPath('scenario.schema'), 'utf8')).toBe(
      scenarioSchema(await compileDocument('control')),
    );
  });
});
