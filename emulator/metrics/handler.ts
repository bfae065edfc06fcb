import type { OperationHandler } from '../http/operation-handler.js';
import type { EmulatorMetrics } from './metrics.js';

/** GET /_emulator/metrics: the Prometheus text format. */
export function metricsHandler(metrics: EmulatorMetrics): OperationHandler {
  return {
    operationId: 'getMetrics',
    async handle(_request, reply) {
      const { text, contentType } = await metrics.scrape();
      return reply.code(200).type(contentType).send(text);
    },
  };
}
