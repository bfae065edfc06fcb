import { createHash } from 'node:crypto';
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import { baseUrlOf, type RunningServer } from '../baselines/running-server.js';

// B-fastify with the emulator's layers added one at a time, to put a price on each: what a
// publish costs once the server has a logger, CORS, route schemas, auth hooks, a credential
// digest, a raw-bytes body parser and a stored message. Each layer imitates what emulator/ does
// (see its app.ts, auth/ and topics/), without importing it: the bench stays a black box.

export const layers = ['logger', 'cors', 'schema', 'hooks', 'digest', 'buffer-parser', 'message'] as const;
export type Layer = (typeof layers)[number];

const nameSchema = { type: 'string', minLength: 1, maxLength: 255 };
const routeSchema = {
  params: {
    type: 'object',
    properties: { cacheName: nameSchema, topicName: nameSchema },
    required: ['cacheName', 'topicName'],
  },
  querystring: { type: 'object', properties: { token: { type: 'string' } } },
  headers: { type: 'object', properties: { authorization: { type: 'string' } } },
};

export async function buildLayered(enabled: ReadonlySet<Layer>): Promise<FastifyInstance> {
  const app = Fastify({
    logger: enabled.has('logger') ? { level: 'warn' } : false,
    disableRequestLogging: true,
  });
  if (enabled.has('cors'))
    await app.register(cors, {
      origin: true,
      methods: ['GET', 'POST', 'DELETE'],
      exposedHeaders: ['Retry-After'],
      maxAge: 600,
    });
  if (enabled.has('buffer-parser')) {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_request, bytes, done) =>
      done(null, { kind: 'text', bytes }),
    );
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, bytes, done) =>
      done(null, { kind: 'unsupported', bytes }),
    );
  }
  const verdicts = new Map<string, boolean>([
    [createHash('sha256').update('topics-emulator-dev-key').digest('base64'), true],
  ]);
  const retained: string[] = [];
  let seq = 0;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  app.route({
    method: 'POST',
    url: '/topics/:cacheName/:topicName',
    ...(enabled.has('schema') ? { schema: routeSchema } : {}),
    ...(enabled.has('hooks')
      ? {
          onRequest: (request, _reply, done) => {
            const credential = request.headers.authorization ?? '';
            if (
              enabled.has('digest') &&
              verdicts.get(createHash('sha256').update(credential).digest('base64')) !== true
            )
              return done(new Error('unknown credential'));
            done();
          },
          preHandler: (_request, _reply, done) => done(),
        }
      : {}),
    handler: (request, reply) => {
      if (enabled.has('message')) {
        const body = request.body as { bytes: Buffer } | string;
        const text = typeof body === 'string' ? body : decoder.decode(body.bytes);
        seq += 1;
        retained[seq % 100] = JSON.stringify({
          item: { sequence_page: 1, topic_sequence_number: seq, value: { text } },
        });
      }
      reply.code(204).send();
    },
  });
  return app;
}

export async function startLayered(enabled: readonly Layer[]): Promise<RunningServer> {
  const app = await buildLayered(new Set(enabled));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: baseUrlOf(app.server.address()), close: () => app.close() };
}
