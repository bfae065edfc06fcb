import cors from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { methodsByPath, type OpenApiDocument } from '../openapi-routes.js';
import { planeOf, type OriginPolicy, type Plane } from './origins.js';

// CORS headers from the same origin policy the connection guard enforces (a refused Origin never
// gets here). An answer varies by Origin; one to a granted Origin allows it and exposes Retry-After.
// Preflights, by @fastify/cors, are answered on the documents' paths, each listing exactly the
// methods its path has, and on any other path (so a page reads the 404 that follows); any other
// OPTIONS is an ordinary request: the document's paths answer it 204 with `Allow`, others 404. The plugin sees only OPTIONS requests (its scope holds every
// OPTIONS route), so a request without an Origin (every non-browser client) costs one header.

const EXPOSED = 'Retry-After';
/** What a preflight on a path the emulator does not serve may ask for. */
const ANY_METHOD = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export type CorsHeaders = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * What @fastify/cors answers a request other than a preflight with (a step of the arrival hook,
 * http/arrival.ts): `Vary: Origin`, and to a granted Origin the grant and the exposed header.
 */
export function corsHeaders(origins: OriginPolicy): CorsHeaders {
  // With `--cors-origin '*'` the service routes allow any origin even when the request names none:
  // a CDN in front of the emulator may strip Origin and cache one answer for every page.
  const anyOnService = origins.anyOrigin('service');
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
    } else if (anyOnService && planeOf(request.routeOptions.url ?? request.url) === 'service') {
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-expose-headers', EXPOSED);
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
    // The plugin's own `OPTIONS *` answers a preflight on a path the emulator does not serve (a
    // client's other API, `/cache/...`): a granted origin's passes, so the browser sends the
    // request and its page reads the 404 and its body instead of a bare network error. Any other
    // OPTIONS there is the 404 itself.
    await preflights.register(cors, {
      origin: grantFor('service'),
      preflight: true,
      methods: ANY_METHOD,
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
