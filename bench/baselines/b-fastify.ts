import Fastify, { type FastifyInstance } from 'fastify';
import { baseUrlOf, type ListenOptions, type RunningServer } from './running-server.js';

// B-fastify: the cost floor for one publish or one answered subscribe. The same route shape and
// body parsing as the emulator (fastify's built-in text/plain parser, the body kept as a string),
// and nothing else: no auth, no validation, no topic state.

const smallPage = {
  items: [{ item: { sequence_page: 1, topic_sequence_number: 1, value: { text: 'hello' } } }],
};

interface TopicParams {
  cacheName: string;
  topicName: string;
}

export function buildBFastify(): FastifyInstance {
  const app = Fastify({ logger: false });
  app.post<{ Params: TopicParams; Body: string }>('/topics/:cacheName/:topicName', (_request, reply) => {
    reply.code(204).send();
  });
  app.get<{ Params: TopicParams }>('/topics/:cacheName/:topicName', (_request, reply) => {
    reply.send(smallPage);
  });
  return app;
}

export async function startBFastify(options: ListenOptions = {}): Promise<RunningServer> {
  const app = buildBFastify();
  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  return { url: baseUrlOf(app.server.address()), close: () => app.close() };
}
