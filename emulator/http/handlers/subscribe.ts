import type { EmulatorContext } from '../../context.js';
import type { OperationHandler, TopicParams } from '../operation-handler.js';
import { cursorOf, waitingRefusal } from '../../service/subscribe.js';
import { WAITING_SUBSCRIBERS } from '../../limits/account-limits.js';
import { factsOf } from '../admission.js';
import { exchangeOf } from '../exchanges.js';
import type { LongPolls } from '../waiting.js';

interface SubscribeQuery {
  sequence_number?: number;
  sequence_page?: number;
}

// ajv coerces "Infinity" and "1e400" to Infinity and checks `maximum` only on finite numbers:
// the cursor's own check (service/subscribe.ts) answers those.
const QUERY_NAMES = { number: 'querystring/sequence_number', page: 'querystring/sequence_page' };

/** GET /topics/{cacheName}/{topicName}: answer from the cursor at once, or wait for a publish (a long-poll). */
export function subscribeHandler(context: EmulatorContext, longPolls: LongPolls): OperationHandler {
  const { store, faults } = context;
  return {
    operationId: 'subscribe',
    access: 'subscribe',
    handle(request, reply) {
      const { cacheName, topicName } = request.params as TopicParams;
      const query = request.query as SubscribeQuery;
      const cursor = cursorOf(query.sequence_number ?? 0, query.sequence_page ?? 0, QUERY_NAMES);
      const exchange = exchangeOf(request);
      store.use(cacheName, topicName);
      const subscription = longPolls.open(
        cursor,
        factsOf('subscribe', request),
        request,
        reply,
        exchange.deliveries ?? undefined,
      );
      if (subscription.answerNow()) return;
      const refused = waitingRefusal(context);
      if (refused) {
        if (exchange.facts) exchange.facts.decidedBy = WAITING_SUBSCRIBERS;
        throw refused;
      }
      longPolls.park(subscription, request, reply);
      subscription.endsWith(exchange.principal!);
      request.log.debug({ cache: cacheName, topic: topicName, cursor }, 'subscriber waiting');
      if (faults.active) faults.waitingStarted(subscription);
    },
  };
}
