import type { ExchangeFacts } from '../exchange.js';
import type { AnsweredRequest } from './recorder.js';

/**
 * What an exchange record (the event stream's `request` events) adds to the counters; undefined
 * for a request that got no answer (dropped, or its client went away first).
 */
export function answeredFromExchange(facts: ExchangeFacts): AnsweredRequest | undefined {
  if (facts.status === null) return undefined;
  return {
    plane: facts.plane,
    operation: facts.operation,
    status: facts.status,
    items: facts.items.length,
    discontinuity: facts.discontinuity !== null,
  };
}

/** A fault rule or chaos decided the request (a limit is not a fault). */
export function firedFault(facts: ExchangeFacts): boolean {
  return facts.decidedBy !== null && facts.decidedBy.kind !== 'limit';
}
