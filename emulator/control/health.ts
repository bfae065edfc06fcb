import type { Health } from '../../openapi/generated/control-types.js';
import type { OperationHandler } from '../http/operation-handler.js';
import type { StoreHealth } from '../topics/store.js';
import { version } from '../version.js';

/**
 * GET /_emulator/health: 200 once the emulator is ready, every door it was asked for serving
 * (container health checks and CI scripts wait on it); 503 while it starts or its store is lost.
 */
export function healthHandler(storeHealth: () => StoreHealth, started: () => boolean): OperationHandler {
  return {
    operationId: 'health',
    async handle(_request, reply) {
      const state = storeHealth();
      const status = !started() ? 'starting' : state.up ? 'ok' : 'unavailable';
      const health: Health = { status, version, store: state };
      return reply.code(status === 'ok' ? 200 : 503).send(health);
    },
  };
}
