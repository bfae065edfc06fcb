import type { EmulatorContext, OperationHandler, TopicParams } from '../context.js';
import type { ClockTimer } from '../clock.js';
import { EmulatorError } from '../errors.js';
import { waitingCursor } from '../topics/read-plan.js';
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
    handle(request, reply) {
      const { cacheName, topicName } = request.params as TopicParams;
      const query = request.query as SubscribeQuery;
      const cursor = { sequenceNumber: query.sequence_number ?? 0, sequencePage: query.sequence_page ?? 0 };
      // ajv coerces "Infinity" and "1e400" to Infinity and checks `maximum` only on finite numbers.
      for (const [name, value] of [
        ['sequence_number', cursor.sequenceNumber],
        ['sequence_page', cursor.sequencePage],
      ] as const) {
        if (!Number.isSafeInteger(value))
          throw new EmulatorError(
            'invalid_parameter',
            `Invalid request parameter: querystring/${name} must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}.`,
          );
      }
      const topic = store.topic(cacheName, topicName);
      const ready = topic.read(cursor);
      if (ready !== undefined) {
        reply.code(200).header('content-type', 'application/json; charset=utf-8').send(ready);
        return;
      }

      if (store.waitingCount() >= settings.maxWaitingSubscribers) {
        throw new EmulatorError(
          'limit_exceeded',
          `Too many waiting subscribers (the limit is ${settings.maxWaitingSubscribers}): try again shortly.`,
          { 'retry-after': '1' },
        );
      }
      let timer: ClockTimer | undefined;
      let answered = false;
      const subscriber: WaitingSubscriber = {
        cursor: waitingCursor(topic.position, cursor),
        since: clock.now(),
        answer(body) {
          if (answered) return;
          answered = true;
          timer?.cancel();
          void reply.code(200).header('content-type', 'application/json; charset=utf-8').send(body);
        },
        flushed: () =>
          new Promise<void>((resolve) => {
            if (reply.raw.writableFinished || reply.raw.destroyed) return resolve();
            reply.raw.once('finish', resolve).once('close', resolve);
          }),
      };
      topic.park(subscriber);
      request.log.debug({ cache: cacheName, topic: topicName, cursor }, 'subscriber waiting');
      if (settings.longPollTimeoutMs > 0) {
        timer = clock.schedule(settings.longPollTimeoutMs, () => {
          topic.unpark(subscriber);
          subscriber.answer(EMPTY_ITEMS_BODY);
        });
      }
      // A client that goes away while waiting leaves nothing behind: not the subscriber, not
      // its timer, and not its socket (Node keeps a half-closed one open for the answer).
      reply.raw.once('close', () => {
        if (answered) return;
        answered = true;
        topic.unpark(subscriber);
        timer?.cancel();
        reply.raw.destroy();
      });
      // Lets the control plane answer this waiting request itself (a "while waiting" fault):
      // the subscriber leaves the topic as if its client had gone. False when already answered.
      request.abandonWait = () => {
        if (answered) return false;
        answered = true;
        topic.unpark(subscriber);
        timer?.cancel();
        return true;
      };
    },
  };
}
