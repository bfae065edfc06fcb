import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { baseUrlOf, type ListenOptions, type RunningServer } from './running-server.js';

// B-ref: the simplest long-poll server that can answer the bench's subscribers, to compare the
// emulator's waiting and waking against. A map of topic -> parked replies; a publish answers
// every parked reply of its topic with the message, then 204. No validation, no auth, no
// retention (a message published while nobody waits is gone), no clean-up of abandoned waits.

interface TopicParams {
  cacheName: string;
  topicName: string;
}

export interface BRefOptions {
  /** Called when a subscribe request has been parked (tests wait on it instead of sleeping). */
  onPark?: () => void;
}

export function buildBRef(options: BRefOptions = {}): FastifyInstance {
  const app = Fastify({ logger: false });
  const waiting = new Map<string, FastifyReply[]>();
  const sequences = new Map<string, number>();

  app.get<{ Params: TopicParams }>('/topics/:cacheName/:topicName', (request, reply) => {
    const key = `${request.params.cacheName}/${request.params.topicName}`;
    const replies = waiting.get(key);
    if (replies === undefined) waiting.set(key, [reply]);
    else replies.push(reply);
    options.onPark?.();
    // Not sending parks the request: fastify leaves the reply open until someone sends it.
  });

  app.post<{ Params: TopicParams; Body: string }>('/topics/:cacheName/:topicName', (request, reply) => {
    const key = `${request.params.cacheName}/${request.params.topicName}`;
    const sequence = (sequences.get(key) ?? 0) + 1;
    sequences.set(key, sequence);
    const replies = waiting.get(key);
    waiting.delete(key);
    if (replies !== undefined) {
      const page = {
        items: [{ item: { sequence_page: 1, topic_sequence_number: sequence, value: { text: request.body } } }],
      };
      for (const parked of replies) parked.send(page);
    }
    reply.code(204).send();
  });

  // Close answers what is still parked, as the emulator's long-poll timeout would, so that
  // close() does not wait forever on requests nobody will publish to.
  app.addHook('preClose', (done) => {
    for (const replies of waiting.values()) for (const parked of replies) parked.send({ items: [] });
    waiting.clear();
    done();
  });
  return app;
}

export async function startBRef(options: ListenOptions & BRefOptions = {}): Promise<RunningServer> {
  const app = buildBRef(options);
  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  return { url: baseUrlOf(app.server.address()), close: () => app.close() };
}
