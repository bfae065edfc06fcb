import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EmulatorError } from '../errors.js';

// The bodies of gRPC-web calls, read whole before the call is passed on (a gRPC message comes in
// one piece): each at most gRPC's largest message, and all those being read or in flight together
// at most BODY_BUDGET_BYTES, so that many connections each sending 4 MiB cannot grow memory
// without bound. A call over the budget is answered 503 with Retry-After, before it is read.

/** The most one gRPC-web request may carry: gRPC's default largest message, with its frame. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024 + 5;
/** The most the bodies of all gRPC-web calls in flight may hold together. */
export const BODY_BUDGET_BYTES = 64 * 1024 * 1024;

/** Reads any body as bytes within the two bounds; what a call held is given back when its answer ends. */
export function readBodiesWithinBudget(scope: FastifyInstance, budget = BODY_BUDGET_BYTES): void {
  let held = 0;
  const holding = new WeakMap<FastifyRequest, number>();
  const giveBack = (request: FastifyRequest) => {
    held -= holding.get(request) ?? 0;
    holding.delete(request);
  };
  scope.addHook('onRequest', (request, reply, done) => {
    reply.raw.once('close', () => giveBack(request));
    done();
  });
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (request, payload, done) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const fail = (error: EmulatorError) => {
      if (failed) return;
      failed = true;
      payload.removeAllListeners('data');
      payload.resume();
      done(error);
    };
    payload.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES)
        return fail(
          new EmulatorError('payload_too_large', `A gRPC-web request may carry at most ${MAX_BODY_BYTES} bytes.`),
        );
      if (held + chunk.length > budget)
        return fail(
          new EmulatorError(
            'service_unavailable',
            `The gRPC-web calls in flight hold ${budget} bytes of request bodies, the most they may: retry shortly.`,
            { 'retry-after': '1' },
          ),
        );
      held += chunk.length;
      holding.set(request, (holding.get(request) ?? 0) + chunk.length);
      chunks.push(chunk);
    });
    payload.on('end', () => {
      if (!failed) done(null, Buffer.concat(chunks, size));
    });
    payload.on('error', (error) => fail(new EmulatorError('invalid_request', error.message)));
  });
}
