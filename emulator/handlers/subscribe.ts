import type { EmulatorContext, OperationHandler, TopicParams } from '../context.js';
import { EmulatorError } from '../errors.js';
import { answerRead } from '../http/answers.js';
import { factsOf } from '../http/admission.js';
import { exchangeOf } from '../http/exchanges.js';
import { waitingCursor } from '../topics/read-plan.js';

interface SubscribeQuery {
  sequence_number?: number;
  sequence_page?: number;
}

function requireWhole(name: string, value: number): void {
  if (!Number.isSafeInteger(value))
    throw new EmulatorError(
      'invalid_parameter',
      `Invalid request parameter: querystring/${name} must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}.`,
    );
}

/** GET /topics/{cacheName}/{topicName}: answer from the cursor at once, or wait for a publish. */
export function subscribeHandler(context: EmulatorContext): OperationHandler {
  const { store, settings, waiting, faults } = context;
  return {
    operationId: 'subscribe',
    access: 'subscribe',
    handle(request, reply) {
      const { cacheName, topicName } = request.params as TopicParams;
      const query = request.query as SubscribeQuery;
      const cursor = { sequenceNumber: query.sequence_number ?? 0, sequencePage: query.sequence_page ?? 0 };
      // ajv coerces "Infinity" and "1e400" to Infinity and checks `maximum` only on finite numbers.
      requireWhole('sequence_number', cursor.sequenceNumber);
      requireWhole('sequence_page', cursor.sequencePage);
      const topic = store.topic(cacheName, topicName);
      const exchange = exchangeOf(request);
      const ready = topic.read(cursor, exchange.deliveries?.maxItems);
      if (ready !== undefined) return answerRead(context, request, reply, ready);

      if (waiting.size >= settings.maxWaitingSubscribers) {
        if (exchange.facts) exchange.facts.decidedBy = { kind: 'limit', limit: 'waiting-subscribers' };
        throw new EmulatorError(
          'limit_exceeded',
          `Too many waiting subscribers (the limit is ${settings.maxWaitingSubscribers}): try again shortly.`,
          { 'retry-after': '1' },
        );
      }
      const facts = factsOf('subscribe', request);
      const parked = waiting.park(topic, waitingCursor(topic.position, cursor), facts, request, reply);
      request.log.debug({ cache: cacheName, topic: topicName, cursor }, 'subscriber waiting');
      if (faults.active) faults.waitingStarted(parked);
    },
  };
}
