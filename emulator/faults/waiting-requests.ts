import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestFacts } from './rule.js';

/** A subscribe request parked until something arrives for its cursor. */
export interface WaitingRequest {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly facts: RequestFacts;
  /** Clock reading when it started waiting. */
  readonly since: number;
  /** Cleanups to run when it ends (timers of "while waiting" rules). */
  readonly onEnd: (() => void)[];
}

// Every waiting subscribe request, with what is needed to answer it from outside its handler:
// "while waiting" fault rules (including rules added after it started waiting) and the
// concurrent-subscription limit both read it. Entries leave when their response closes.
export class WaitingRequests {
  private readonly entries = new Set<WaitingRequest>();

  add(request: FastifyRequest, reply: FastifyReply, facts: RequestFacts, since: number): WaitingRequest {
    const entry: WaitingRequest = { request, reply, facts, since, onEnd: [] };
    this.entries.add(entry);
    reply.raw.once('close', () => this.end(entry));
    return entry;
  }

  has(entry: WaitingRequest): boolean {
    return this.entries.has(entry);
  }

  get size(): number {
    return this.entries.size;
  }

  [Symbol.iterator](): IterableIterator<WaitingRequest> {
    return this.entries.values();
  }

  private end(entry: WaitingRequest): void {
    if (!this.entries.delete(entry)) return;
    for (const cleanup of entry.onEnd.splice(0)) cleanup();
  }
}
