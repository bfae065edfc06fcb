import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import topicsDocument from '../../openapi/generated/topics.json' with { type: 'json' };
import controlDocument from '../../openapi/generated/control.json' with { type: 'json' };
import { countItems } from '../faults/deliveries.js';
import { operationRoutes, type OpenApiDocument } from '../openapi-routes.js';
import type { EmulatorMetrics } from './metrics.js';

// TEMPORARY, the one place requests are counted until the request path emits its exchange
// records (`{ kind: 'request', record: ExchangeFacts }`, emulator/exchange.ts) on the event
// stream: then `metrics.countExchanges(context.events)` counts from those, and this hook goes. A root onSend hook sees a
// subscribe answer before an "after N items" fault cuts it, so such a cut is counted uncut.

const DISCONTINUITY = '{"discontinuity":';

function operationIds(): Map<string, string> {
  const ids = new Map<string, string>();
  for (const document of [topicsDocument, controlDocument] as unknown as OpenApiDocument[])
    for (const route of operationRoutes(document)) ids.set(`${route.method} ${route.url}`, route.operationId);
  return ids;
}

/** A root onSend hook that counts every answered request in `metrics`. */
export function countAnsweredRequests(metrics: EmulatorMetrics): onSendHookHandler {
  const ids = operationIds();
  return (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    const url = request.routeOptions.url;
    const operation = url === undefined ? null : (ids.get(`${request.method} ${url}`) ?? null);
    const delivers = operation === 'subscribe' && reply.statusCode === 200 && typeof payload === 'string';
    metrics.answered({
      plane: (url ?? request.url).startsWith('/_emulator/') ? 'control' : 'service',
      operation,
      status: reply.statusCode,
      items: delivers ? countItems(payload) : 0,
      discontinuity: delivers && payload.includes(DISCONTINUITY),
    });
    done(null, payload);
  };
}
