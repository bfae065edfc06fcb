import type { Health } from '../../openapi/generated/control-types.js';
import type { OperationHandler } from '../http/operation-handler.js';
import type { StoreHealth } from '../topics/store.js';
import { version } from '../version.js';

/** GET /_emulator/health: 200 once the emulator is ready (container health checks wait on it); 503 while its store is lost. */
export function healthHandler(storeHealth: () => StoreHealth): OperationHandler {
  return {
    operationId: 'health',
    async handle(_request, reply) {
      const state = storeHealth();
      const health: Health = { status: state.up ? 'ok' : 'unavailable', version, store: state };
      return reply.code(state.up ? 200 : 503).send(health);
    },
  };
}
