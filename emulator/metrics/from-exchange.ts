import type { ExchangeFacts } from '../exchange.js';
import type { AnsweredRequest } from './recorder.js';

/** Whether an exchange record (the event stream's `request` events) was answered: not dropped, its client still there. */
export function isAnswered(facts: ExchangeFacts): facts is ExchangeFacts & AnsweredRequest {
  return facts.status !== null;
}

/** A fault rule, chaos or momento-local's metadata decided the request (a limit or a withdrawn token is not a fault). */
export function firedFault(facts: ExchangeFacts): boolean {
  return facts.decidedBy !== null && facts.decidedBy.kind !== 'limit' && facts.decidedBy.kind !== 'token';
}
