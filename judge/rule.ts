import type { ClientViolation, JournalEntry } from '../openapi/generated/control-types.js';
import type { Subscription } from './subscriptions.js';

// A client rule: what robust Topics clients do, checked over what one client sent. Each check
// is a pure function of the client's journalled requests; a violation names the requests that
// show it (journal ids), so a reader can see for themselves.

/** `contract`: the contract or the provider's documentation says so. `harm`: what does harm in production. `advice`: what robust clients do. */
export type RuleLevel = ClientViolation['level'];

/** Everything one client (one credential identity) sent to the service, as the checks see it. */
export interface ClientView {
  client: string;
  /** Its service requests, in order of arrival. */
  requests: readonly JournalEntry[];
  /** Its subscribes, followed into subscriptions (subscriptions.ts). */
  subscriptions: readonly Subscription[];
}

export interface RuleViolation {
  /** What happened, in one sentence. */
  message: string;
  /** The journal ids of the requests that show it, in order. */
  requests: number[];
}

export interface RuleOutcome {
  /** How many times the situation the rule is about arose; 0: not exercised. */
  occasions: number;
  violations: RuleViolation[];
}

export interface ClientRule {
  id: string;
  level: RuleLevel;
  /** The rule, as a reader would state it. */
  title: string;
  /** The sentence it rests on, quoted. */
  sentence: string;
  /** Where the sentence is. */
  source: string;
  check: (client: ClientView) => RuleOutcome;
}

export { endOf, isFirstRequest, sameCursor, showCursor } from './cursor.js';

/** Requests grouped by target (cache/topic), each group in order of arrival. */
export function byTopic(requests: readonly JournalEntry[]): JournalEntry[][] {
  const groups = new Map<string, JournalEntry[]>();
  for (const request of requests) {
    const key = `${request.cache}/${request.topic}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(request);
  }
  return [...groups.values()];
}

/** The most entries a violation lists; the message says how many there were. */
export const MAX_EVIDENCE = 10;

export const none = (): RuleOutcome => ({ occasions: 0, violations: [] });
