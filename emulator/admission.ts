import type { Principal } from './auth/authenticator.js';
import type { Access } from './auth/permissions.js';
import type { EmulatorContext } from './context.js';
import { cacheNotFound, EmulatorError } from './errors.js';
import type { DeliveryWatch } from './faults/deliveries.js';
import type { RequestEnd } from './limits/counts.js';
import type { Effect, RequestFacts } from './requests.js';

// What a service request meets before its operation, whichever door it came through (the HTTP
// API, http/admission.ts; the provider's gRPC service, grpc/server.ts): the caller's permission
// on the topic or the item, and the cache, then the fault rules (the first that fires decides), chaos and the account
// limits. It knows no protocol: each door applies an effect its own way (a held request, a
// dropped connection, an error answer or status).

/** The caller may do this to this topic, and the cache exists; else it throws the answer. */
export function checkAccess(
  context: Pick<EmulatorContext, 'auth' | 'store'>,
  principal: Principal,
  access: Access,
  cache: string,
  topic: string,
): void {
  context.auth.authorize(principal, access, cache, topic);
  if (!context.store.hasCache(cache)) throw cacheNotFound(cache);
}

/**
 * A cache this process does not know may have been made a moment ago by another replica on a
 * shared store: asked there before a request is refused for it (in memory this resolves at once).
 */
export async function confirmCache(context: Pick<EmulatorContext, 'store'>, cache: string): Promise<void> {
  if (!context.store.hasCache(cache)) await context.store.confirmCache(cache);
}

/** The caller may read or write this item of this cache, and the cache exists; else it throws the answer. */
export function checkItemAccess(
  context: Pick<EmulatorContext, 'auth' | 'store'>,
  principal: Principal,
  access: 'read' | 'write',
  cache: string,
  key: Buffer,
): void {
  context.auth.authorize(principal, access, cache, key.toString('utf8'));
  if (!context.store.hasCache(cache))
    throw new EmulatorError('cache_not_found', `Cache Not Found: the cache '${cache}' does not exist.`);
}

/**
 * Fault rules, chaos, then the account limits, each effect applied by the door as it is
 * decided (`apply` resolves when the request may go on; `stopped` says the door has answered
 * already). Returns the "after N items" rules a subscribe counts towards. Only called while
 * something is switched on: with nothing on, a door goes straight to the operation.
 */
export async function decideAdmission(
  context: Pick<EmulatorContext, 'faults' | 'limits' | 'pageChanges'>,
  facts: RequestFacts,
  end: RequestEnd,
  apply: (effect: Effect) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<DeliveryWatch | undefined> {
  const { faults, limits } = context;
  let deliveries: DeliveryWatch | undefined;
  if (faults.active) {
    // Decided when asked in memory; a rule counted across replicas waits for their ledger.
    const decision = await faults.decide(facts);
    deliveries = decision.deliveries;
    // A page change chaos drew happens here, before the request goes on to its topic.
    if (decision.pageChange !== undefined) context.pageChanges.changeNow(facts.cache, facts.topic, decision.pageChange);
    if (decision.effect) {
      await apply(decision.effect);
      if (stopped()) return deliveries;
    }
  }
  if (limits.active) {
    // Counted when asked in memory; a shared store (Redis) counts for every replica in one round trip.
    const effect = await limits.admit(facts, end);
    if (effect) await apply(effect);
  }
  return deliveries;
}
