import { EmulatorError } from '../errors.js';
import { defaultRetryAfter } from '../documents.js';
import type { DecidedBy } from '../exchange.js';
import type { Effect } from '../requests.js';
import { defaultCodes, type FaultEffect } from './rule.js';

// What a fault does to one request, as the plain effect the HTTP layer applies, and how it
// reads in a log line.

/** The error a status effect answers: the registry's body, Retry-After for 429 (default 1 s). */
export function faultError(effect: FaultEffect): EmulatorError {
  const status = effect.status!;
  const retryAfter = effect.retryAfterSeconds ?? defaultRetryAfter(status);
  return new EmulatorError(
    effect.code ?? defaultCodes[status],
    effect.message,
    retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
  );
}

/** The effect without its delay: for a request answered now (a waiting subscribe, a response leaving). */
export function withoutDelay(effect: FaultEffect): FaultEffect {
  const now = { ...effect };
  delete now.delayMs;
  return now;
}

/** A rule's or chaos's effect, as the request path applies it. */
export function effectOf(effect: FaultEffect, decidedBy: DecidedBy): Effect {
  return {
    decidedBy,
    ...(effect.delayMs ? { delayMs: effect.delayMs } : {}),
    ...(effect.drop ? { drop: true } : {}),
    ...(effect.status ? { error: faultError(effect) } : {}),
  };
}

export function describeEffect(effect: FaultEffect): string {
  const parts: string[] = [];
  if (effect.delayMs) parts.push(`delayed ${effect.delayMs} ms`);
  if (effect.drop) parts.push('connection dropped');
  if (effect.status) {
    const retry = effect.retryAfterSeconds ?? defaultRetryAfter(effect.status);
    parts.push(
      `answered ${effect.status} ${effect.code ?? defaultCodes[effect.status]}${retry === undefined ? '' : ` (Retry-After ${retry})`}`,
    );
  }
  return parts.join(', then ');
}
