import type { EmulatorContext, OperationHandler, TopicParams } from '../context.js';
import type { ClockTimer } from '../clock.js';
import { EMPTY_ITEMS_BODY, type WaitingSubscriber } from '../topics/subscriber.js';

interface SubscribeQuery {
  sequence_number?: number;
  sequence_page?: number;
}

/** GET /topics/{cacheName}/{topicName}: answer from the cursor at once, or wait for a publish. */
export function subscribeHandler(context: EmulatorContext): OperationHandler {
  const { store, clock, settings } = context;
  return {
    operationId: 'subscribe',
    access: 'subscribe',
    async handle(request, reply) {
      const { cacheName, topicName } = request.params as TopicParams;
      const query = request.query as SubscribeQuery;
      const cursor = { sequenceNumber: query.sequence_number ?? 0, sequencePage: query.sequence_page ?? 0 };
      const topic = store.topic(cacheName, topicName);
      const ready = topic.read(cursor);
      if (ready !== undefined) return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(ready);

      let timer: ClockTimer | undefined;
      let answered = false;
      const subscriber: WaitingSubscriber = {
        cursor,
        since: clock.now(),
        answer(body) {
          if (answered) return;
          answered = true;
          timer?.cancel();
          void reply.code(200).header('content-type', 'application/json; charset=utf-8').send(body);
        },
      };
      topic.waiting.add(subscriber);
      request.log.debug({ cache: cacheName, topic: topicName, cursor }, 'subscriber waiting');
      if (settings.longPollTimeoutMs > 0) {
        timer = clock.schedule(settings.longPollTimeoutMs, () => {
          topic.waiting.delete(subscriber);
          subscriber.answer(EMPTY_ITEMS_BODY);
        });
      }
      // A client that goes away while waiting leaves nothing behind.
      reply.raw.once('close', () => {
        if (answered) return;
        answered = true;
        topic.waiting.delete(subscriber);
        timer?.cancel();
      });
      return reply;
    },
  };
}
