import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkItemAccess, confirmCache, decideAdmission } from '../../admission.js';
import { requireKey } from '../../cache/operations.js';
import type { EmulatorContext } from '../../context.js';
import { EmulatorError } from '../../errors.js';
import { requestFacts, type CacheOperation } from '../../requests.js';
import { applyEffect } from '../answers.js';
import { exchangeOf } from '../exchanges.js';
import type { OperationHandler } from '../operation-handler.js';

// The cache HTTP API (openapi/topics.yaml, /cache/{cacheName}): Get Value, Set Value, Delete
// Value. Each translates to the core: the item's permission and the cache (admission.ts), the
// fault rules and limits (only while on), then the cache's operation (cache/operations.ts).

interface CacheQuery {
  key?: string;
  key_base64?: string;
  ttl_seconds?: number;
}

/** The item's key: exactly one of `key` (UTF-8 text) and `key_base64` (base64url bytes). */
export function keyOf(query: CacheQuery): Buffer {
  if (query.key !== undefined && query.key_base64 !== undefined)
    throw new EmulatorError('invalid_parameter', 'Invalid request: send key or key_base64, not both.');
  const key =
    query.key !== undefined
      ? Buffer.from(query.key, 'utf8')
      : query.key_base64 !== undefined
        ? Buffer.from(query.key_base64, 'base64url')
        : undefined;
  if (key === undefined)
    throw new EmulatorError('invalid_parameter', 'Invalid request: a key is required (key or key_base64).');
  requireKey(key);
  return key;
}

/** What a cache call meets before its operation: permission and the cache, then faults and limits. */
async function admitItem(
  context: EmulatorContext,
  operation: CacheOperation,
  access: 'read' | 'write',
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<{ cache: string; key: Buffer }> {
  const { cacheName } = request.params as { cacheName: string };
  const key = keyOf(request.query as CacheQuery);
  const principal = exchangeOf(request).principal!;
  await confirmCache(context, cacheName);
  checkItemAccess(context, principal, access, cacheName, key);
  if (context.faults.active || context.limits.active)
    await decideAdmission(
      context,
      requestFacts(operation, 'http', cacheName, '', principal),
      reply.raw,
      (effect) => applyEffect(effect, request, reply, context.faults.delays),
      () => reply.sent,
    );
  return { cache: cacheName, key };
}

/** One route of the cache HTTP API: admitted for its item, then answered by `answer`. */
function cacheRoute(
  context: EmulatorContext,
  operationId: string,
  operation: CacheOperation,
  access: 'read' | 'write',
  answer: (item: { cache: string; key: Buffer }, request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>,
): OperationHandler {
  return {
    operationId,
    access,
    admitsItself: true,
    async handle(request, reply) {
      const item = await admitItem(context, operation, access, request, reply);
      return reply.sent ? reply : answer(item, request, reply);
    },
  };
}

export function cacheHandlers(context: EmulatorContext): OperationHandler[] {
  const { items } = context;
  return [
    cacheRoute(context, 'cacheGet', 'get', 'read', async ({ cache, key }, _request, reply) => {
      const value = await items.run(cache, [key], (ops) => ops.cache.get(cache, key));
      if (value === undefined) throw new EmulatorError('key_not_found');
      return reply.code(200).header('content-type', 'application/octet-stream').send(value);
    }),
    cacheRoute(context, 'cacheSet', 'set', 'write', async ({ cache, key }, request, reply) => {
      const body = request.body;
      const value = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
      const ttlMs = (request.query as CacheQuery).ttl_seconds! * 1000;
      await items.run(cache, [key], (ops) => ops.cache.set(cache, key, value, ttlMs));
      return reply.code(204).send();
    }),
    cacheRoute(context, 'cacheDelete', 'delete', 'write', async ({ cache, key }, _request, reply) => {
      await items.run(cache, [key], (ops) => ops.cache.delete(cache, key));
      return reply.code(204).send();
    }),
  ];
}
