import type { FastifyReply, FastifyRequest } from 'fastify';
import { EmulatorError } from '../errors.js';
import { defaultRetryAfter } from '../documents.js';
import { defaultCodes, type FaultEffect, type RequestFacts } from './rule.js';

// What a fault does to one request, and how it reads in a log line.

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

/** Ends the connection without an answer: the client sees the socket close. */
export function dropConnection(request: FastifyRequest, reply: FastifyReply): void {
  if (!reply.sent) reply.hijack();
  request.raw.socket?.destroy();
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

export function describeRequest(facts: RequestFacts): string {
  return `${facts.operation} ${facts.cache}/${facts.topic}`;
}

/** Log fields for a request: never the token, only its id. */
export function requestFields(facts: RequestFacts): Record<string, string> {
  return {
    operation: facts.operation,
    cache: facts.cache,
    topic: facts.topic,
    ...(facts.tokenId !== undefined ? { tokenId: facts.tokenId } : {}),
  };
}
