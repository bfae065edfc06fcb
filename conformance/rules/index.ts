// The catalogue: every rule, in the order reports list them.
import { authRules } from './auth.js';
import { cacheRules } from './cache.js';
import { controlRules } from './control.js';
import { publishRules } from './publish.js';
import { responseRules } from './responses.js';
import { streamRules } from './stream.js';
import { observationRules } from './observations.js';
import { subscribeRules } from './subscribe.js';
import type { Level, Rule } from './types.js';

export const catalogue: Rule[] = [
  ...responseRules,
  ...publishRules,
  ...subscribeRules,
  ...authRules,
  ...cacheRules,
  ...streamRules,
  ...controlRules,
  ...observationRules,
];

const LEVELS: Level[] = ['documented', 'observed', 'control', 'observation'];

function matches(rule: Rule, pattern: string): boolean {
  if ((LEVELS as string[]).includes(pattern)) return rule.level === pattern;
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return regex.test(rule.id);
}

/** Rules matching any of `patterns` (ids, globs like `auth.*`, or a level); all when empty. */
export function selectRules(patterns: string[]): { rules: Rule[]; unknown: string[] } {
  const wanted = patterns.map((p) => p.trim()).filter((p) => p.length > 0);
  if (wanted.length === 0) return { rules: catalogue, unknown: [] };
  const unknown = wanted.filter((p) => !catalogue.some((rule) => matches(rule, p)));
  return { rules: catalogue.filter((rule) => wanted.some((p) => matches(rule, p))), unknown };
}

export function findRule(id: string): Rule | undefined {
  return catalogue.find((rule) => rule.id === id);
}
