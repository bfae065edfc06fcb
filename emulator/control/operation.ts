import type { FastifyRequest } from 'fastify';
import type { OperationHandler } from '../http/operation-handler.js';

/** A control operation's answer: a status and a JSON body. */
export interface Answer {
  status: number;
  body: unknown;
}

export const ok = (body: unknown): Answer => ({ status: 200, body });
export const created = (body: unknown): Answer => ({ status: 201, body });

/** A control-plane handler: JSON out, whatever the operation computes. */
export function controlOperation(
  operationId: string,
  run: (request: FastifyRequest) => Answer | Promise<Answer>,
): OperationHandler {
  return {
    operationId,
    async handle(request, reply) {
      const { status, body } = await run(request);
      return reply.code(status).type('application/json; charset=utf-8').send(body);
    },
  };
}
