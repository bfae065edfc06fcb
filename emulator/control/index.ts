import type { FastifyRequest } from 'fastify';
import type { OperationHandler } from '../http/operation-handler.js';
import type {
  ChaosInput,
  ClockInput,
  FaultRuleInput,
  LimitsInput,
  RequestMatcher,
  Scenario,
  Snapshot,
  StatePage,
  TopicResetInput,
  WithdrawalInput,
} from '../../openapi/generated/control-types.js';
import type { TokenRequest } from '../auth/tokens.js';
import type { EmulatorControls } from './controls.js';
import { eventStreamHandler } from './event-stream.js';
import { healthHandler } from './health.js';
import { tlsAuthorityHandler } from './tls-authority.js';
import { metricsHandler } from '../metrics/handler.js';
import { controlOperation as op, created, ok } from './operation.js';
import { queryOf } from './query.js';
import { checked } from './validation.js';
import { cacheNotFound, EmulatorError } from '../errors.js';

// The control plane's operations (openapi/control.yaml), one handler each. Bodies arrive
// validated against the document by the route (once); every operation is a method of
// EmulatorControls.

const body = <T>(request: FastifyRequest) => request.body as T;
const listRequestsQuery = queryOf('listRequests');
const getStateQuery = queryOf('getState');
const listCacheItemsQuery = queryOf('listCacheItems');
const getCacheItemQuery = queryOf('getCacheItem');
const param = (request: FastifyRequest, name: string) => (request.params as Record<string, string>)[name]!;

export function controlHandlers(controls: EmulatorControls): OperationHandler[] {
  return [
    healthHandler(
      () => controls.storeHealth(),
      () => controls.started,
    ),
    tlsAuthorityHandler(() => controls.tlsAuthority),
    op('reset', async () => ok(await controls.settledAfter(controls.reset()))),
    // The check applies StatePage's defaults.
    op('getState', async (r) =>
      ok(await controls.gatheredState(checked('StatePage', getStateQuery(r.query), 'query') as Required<StatePage>)),
    ),
    op('issueToken', async (r) => created(await controls.issueToken(body<TokenRequest>(r)))),
    op('expireToken', (r) => ok(controls.expireToken(param(r, 'tokenId'), body<WithdrawalInput>(r)))),
    op('revokeToken', (r) => ok(controls.revokeToken(param(r, 'tokenId'), body<WithdrawalInput>(r)))),
    op('resetTopic', (r) => {
      const result = controls.resetTopic(param(r, 'cacheName'), param(r, 'topicName'), body<TopicResetInput>(r));
      return { status: 'previousPage' in result ? 200 : 202, body: result };
    }),
    op('listCaches', () => ok({ caches: controls.cacheNames() })),
    op('createCache', async (r) => {
      const cache = param(r, 'cacheName');
      const changed = await controls.settledAfter(controls.createCache(cache));
      return { status: changed ? 201 : 200, body: { cache, changed } };
    }),
    op('deleteCache', async (r) => {
      const cache = param(r, 'cacheName');
      if (!(await controls.settledAfter(controls.deleteCache(cache)))) throw cacheNotFound(cache);
      return ok({ cache, changed: true });
    }),
    op('listCacheItems', (r) => {
      const cache = param(r, 'cacheName');
      const page = checked('StatePage', listCacheItemsQuery(r.query), 'query') as Required<StatePage>;
      const listed = controls.cacheItems(cache, page);
      if (!listed) throw cacheNotFound(cache);
      return ok(listed);
    }),
    op('getCacheItem', (r) => {
      const cache = param(r, 'cacheName');
      const page = checked('StatePage', getCacheItemQuery(r.query), 'query') as Required<StatePage>;
      if (!controls.cacheNames().includes(cache)) throw cacheNotFound(cache);
      const found = controls.cacheItem(cache, Buffer.from(param(r, 'keyBase64'), 'base64'), page);
      if (!found)
        throw new EmulatorError('key_not_found', `Key Not Found: the cache '${cache}' has no such live item.`);
      return ok(found);
    }),
    op('flushCache', async (r) => {
      const cache = param(r, 'cacheName');
      if (!(await controls.settledAfter(controls.flushCache(cache)))) throw cacheNotFound(cache);
      return ok({ cache, changed: true });
    }),
    op('listTopicMessages', (r) => ok(controls.topicMessages(param(r, 'cacheName'), param(r, 'topicName')))),
    op('getClock', () => ok(controls.clock())),
    op('setClock', (r) => ok(controls.setClock(body<ClockInput>(r)))),
    op('listFaults', () => ok({ faults: controls.faults(), ended: controls.endedFaults() })),
    op('addFault', (r) => created(controls.addFault(body<FaultRuleInput>(r)))),
    op('clearFaults', () => ok(controls.clearFaults())),
    op('getFault', (r) => ok(controls.fault(param(r, 'faultId')))),
    op('removeFault', (r) => ok(controls.removeFault(param(r, 'faultId')))),
    op('getLimits', async () => ok(await controls.gatheredLimits())),
    op('setLimits', async (r) => {
      const here = controls.setLimits(body<LimitsInput>(r));
      // The change is made: a usage the store cannot give now (Redis out of reach) is this replica's, not a 503.
      return ok(await controls.gatheredLimits().catch(() => here));
    }),
    op('getChaos', () => ok(controls.chaos())),
    op('startChaos', (r) => ok(controls.startChaos(body<ChaosInput>(r)))),
    op('stopChaos', () => ok(controls.stopChaos())),
    op('applyScenario', (r) => ok(controls.applyScenario(body<Scenario>(r)))),
    op('getSnapshot', () => ok(controls.snapshot())),
    op('loadSnapshot', async (r) => ok(await controls.settledAfter(controls.restore(body<Snapshot>(r))))),
    metricsHandler(controls.metrics),
    op('listRequests', async (r) => {
      const { limit, ...matcher } = listRequestsQuery(r.query) as RequestMatcher & { limit?: number };
      return ok(await controls.requests(matcher, limit));
    }),
    op('countRequests', async (r) => ok(await controls.countRequests(body<RequestMatcher>(r)))),
    op('listClients', async () => ok(await controls.clients())),
    eventStreamHandler(controls),
  ];
}
