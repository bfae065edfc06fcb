import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { methodsByPath, type OpenApiDocument } from '../openapi-routes.js';
import type { OriginPolicy, Plane } from './origins.js';

// CORS headers, by @fastify/cors, from the same origin policy the connection guard enforces
// (a refused Origin never gets here). Preflights are answered only on the documents' paths, each
// listing exactly the methods its path has; any other OPTIONS is an ordinary request: the
// document's paths answer it 204 with `Allow`, others 404.

const planeOf = (url: string): Plane => (url.startsWith('/_emulator/') ? 'control' : 'service');

export async function registerCors(
  app: FastifyInstance,
  origins: OriginPolicy,
  documents: readonly OpenApiDocument[],
): Promise<void> {
  const grantFor =
    (plane: Plane) => (origin: string | undefined, done: (error: Error | null, grant: string | false) => void) =>
      done(null, origins.grant(plane, origin));
  await app.register(cors, {
    origin: grantFor('service'),
    preflight: false,
    exposedHeaders: ['Retry-After'],
    maxAge: 600,
    strictPreflight: false,
  });
  // Every route under /_emulator/ (the control plane, the dashboard, whoever registers it) gets
  // the control plane's grant; this hook sees the routes registered after it.
  const controlGrant = grantFor('control');
  app.addHook('onRoute', (route) => {
    if (planeOf(route.url) === 'control')
      route.config = { ...route.config, cors: { ...(route.config as { cors?: object })?.cors, origin: controlGrant } };
  });
  for (const [url, methods] of methodsByPath(documents)) {
    const allow = [...methods, 'OPTIONS'].join(', ');
    app.route({
      method: 'OPTIONS',
      url,
      config: { cors: { preflight: true, methods } },
      handler: (_request, reply) => reply.code(204).header('allow', allow).send(),
    });
  }
}
