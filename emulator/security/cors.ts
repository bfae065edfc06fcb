import cors from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { methodsByPath, type OpenApiDocument } from '../openapi-routes.js';
import { planeOf, type OriginPolicy, type Plane } from './origins.js';

// CORS headers from the same origin policy the connection guard enforces (a refused Origin never
// gets here). An answer varies by Origin; one to a granted Origin allows it and exposes Retry-After.
// Preflights, by @fastify/cors, are answered only on the documents' paths, each listing exactly the
// methods its path has; any other OPTIONS is an ordinary request: the document's paths answer it
// 204 with `Allow`, others 404. The plugin sees only OPTIONS requests (its scope holds every
// OPTIONS route), so a request without an Origin (every non-browser client) costs one header.

const EXPOSED = 'Retry-After';

export type CorsHeaders = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * What @fastify/cors answers a request other than a preflight with (a step of the arrival hook,
 * http/arrival.ts): `Vary: Origin`, and to a granted Origin the grant and the exposed header.
 */
export function corsHeaders(origins: OriginPolicy): CorsHeaders {
  return function answerCors(request, reply) {
    if (request.method === 'OPTIONS') return;
    // Nothing sets Vary before this step (the connection guard sets Connection only).
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin !== undefined) {
      const url = request.routeOptions.url;
      const grant = origins.grant(url === undefined ? 'service' : planeOf(url), origin);
      if (grant !== false) {
        reply.header('access-control-allow-origin', grant);
        reply.header('access-control-expose-headers', EXPOSED);
      }
    }
  };
}

/** Preflights, on the documents' paths only, answered by @fastify/cors with the origin policy's grant. */
export async function registerCors(
  app: FastifyInstance,
  origins: OriginPolicy,
  documents: readonly OpenApiDocument[],
): Promise<void> {
  const grantFor =
    (plane: Plane) => (origin: string | undefined, done: (error: Error | null, grant: string | false) => void) =>
      done(null, origins.grant(plane, origin));
  // Every route under /_emulator/ (the control plane, the dashboard, whoever registers it) gets
  // the control plane's grant; this hook sees the routes registered after it.
  const controlGrant = grantFor('control');
  app.addHook('onRoute', (route) => {
    if (planeOf(route.url) === 'control')
      route.config = { ...route.config, cors: { ...(route.config as { cors?: object })?.cors, origin: controlGrant } };
  });
  await app.register(async (preflights) => {
    await preflights.register(cors, {
      origin: grantFor('service'),
      preflight: false,
      exposedHeaders: [EXPOSED],
      maxAge: 600,
      strictPreflight: false,
    });
    for (const [url, methods] of methodsByPath(documents)) {
      const allow = [...methods, 'OPTIONS'].join(', ');
      preflights.route({
        method: 'OPTIONS',
        url,
        config: { cors: { preflight: true, methods } },
        handler: (_request, reply) => reply.code(204).header('allow', allow).send(),
      });
    }
  });
}
