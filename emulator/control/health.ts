import type { Health } from '../../openapi/generated/control-types.js';
import type { OperationHandler } from '../context.js';
import { version } from '../version.js';

/** GET /_emulator/health: 200 once the emulator is ready (container health checks wait on it). */
export function healthHandler(): OperationHandler {
  return {
    operationId: 'health',
    async handle(_request, reply) {
      const health: Health = { status: 'ok', version };
      return reply.code(200).send(health);
    },
  };
}
