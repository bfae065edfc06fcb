// TEMPORARY: a stand-in for the request path's own emission of ExchangeFacts. It fills the
// facts it can see from fastify hooks and emits `{ kind: 'request', record }` when the response
// has left or the connection closed. Delete this file, and its one call in app.ts, when the
// request path emits the record itself. Nothing else may import it.
import { hash } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/authenticator.js';
import { jwtFrom } from '../auth/tokens.js';
import type { EmulatorContext } from '../context.js';
import type { CredentialPlace, ExchangeFacts } from '../exchange.js';
import { operationRoutes, type OpenApiDocument } from '../openapi-routes.js';

const shortDigest = (value: string) => hash('sha256', value, 'base64url').slice(0, 12);

// Identities by credential, so the hot path hashes a credential once (bounded like the verdict cache).
const identities = new Map<string, string>();

/** `token:<tokenId>`, `token:#<digest>`, `key:#<digest>`: who called, never the credential. */
function clientOf(credential: string | undefined, principal: Principal | null): string | null {
  if (credential === undefined) return null;
  const known = identities.get(credential);
  if (known !== undefined) return known;
  const identity = identityOf(credential, principal);
  // A refused credential may be accepted later under the same name: only settled identities are kept.
  if (principal !== null) {
    if (identities.size >= 10_000) identities.clear();
    identities.set(credential, identity);
  }
  return identity;
}

function identityOf(credential: string, principal: Principal | null): string {
  if (principal?.kind === 'apiKey') return `key:#${shortDigest(credential)}`;
  if (principal?.kind === 'token')
    return principal.tokenId ? `token:${principal.tokenId}` : `token:#${shortDigest(credential)}`;
  // Not authenticated (401): the token's id read without verifying it, only to name the caller.
  const jwt = jwtFrom(credential.replace(/^bearer\s+/i, ''));
  if (jwt === undefined) return `key:#${shortDigest(credential)}`;
  try {
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof claims.sub === 'string' ? `token:${claims.sub}` : `token:#${shortDigest(credential)}`;
  } catch {
    return `token:#${shortDigest(credential)}`;
  }
}

function numberOrUndefined(value: unknown): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

interface Pending {
  at: number;
  started: number;
  payload: string | undefined;
}

export function registerTemporaryEmission(
  app: FastifyInstance,
  context: EmulatorContext,
  documents: OpenApiDocument[],
) {
  const { events, clock } = context;
  const operations = new Map(
    documents.flatMap((d) => operationRoutes(d)).map((r) => [`${r.method} ${r.url}`, r.operationId]),
  );
  const sockets = new WeakMap<Socket, number>();
  let connections = 0;
  const pending = new WeakMap<FastifyRequest, Pending>();

  app.addHook('onRequest', (request, reply, done) => {
    if (!events.active) return done();
    const entry: Pending = { at: clock.now(), started: performance.now(), payload: undefined };
    pending.set(request, entry);
    reply.raw.on('close', () => emit(request, reply, entry));
    done();
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    const entry = pending.get(request);
    if (entry && typeof payload === 'string') entry.payload = payload;
    done(null, payload);
  });

  function emit(request: FastifyRequest, reply: FastifyReply, entry: Pending): void {
    const url = request.routeOptions.url;
    const operation = url === undefined ? null : (operations.get(`${request.method} ${url}`) ?? null);
    const queryAt = request.url.indexOf('?');
    const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    const query = (request.query ?? {}) as Record<string, unknown>;
    const header = request.headers.authorization || undefined;
    const tokenQuery = typeof query.token === 'string' && query.token !== '' ? query.token : undefined;
    const credentialPlace: CredentialPlace =
      header && tokenQuery ? 'both' : header ? 'header' : tokenQuery ? 'query' : 'none';
    const finished = reply.raw.writableFinished;
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    const socket = request.raw.socket;
    let connectionId = 0;
    if (socket) {
      connectionId = sockets.get(socket) ?? ++connections;
      sockets.set(socket, connectionId);
    }
    const record: ExchangeFacts = {
      plane: path.startsWith('/_emulator/') ? 'control' : 'service',
      operation,
      method: request.method,
      path,
      at: entry.at,
      durationMs: Math.round((performance.now() - entry.started) * 100) / 100,
      connectionId,
      cache: params.cacheName ?? null,
      topic: params.topicName ?? null,
      cursor: null,
      client: clientOf(header ?? tokenQuery, request.principal),
      credentialPlace,
      bearer: header !== undefined && /^bearer\s/i.test(header),
      status: finished ? reply.statusCode : null,
      code: null,
      retryAfterSeconds: null,
      decidedBy: null,
      items: [],
      page: null,
      discontinuity: null,
      // A drop hijacks the reply and destroys the socket without ending the response.
      dropped: !finished && reply.sent && !reply.raw.writableEnded,
      clientGone: !finished && !(reply.sent && !reply.raw.writableEnded),
      waitedMs: 0,
    };
    if (operation === 'subscribe') {
      const sequenceNumber = numberOrUndefined(query.sequence_number);
      const sequencePage = numberOrUndefined(query.sequence_page);
      if (sequenceNumber !== undefined || sequencePage !== undefined)
        record.cursor = { sequenceNumber: sequenceNumber ?? 0, sequencePage: sequencePage ?? 0 };
      if (request.abandonWait !== null) record.waitedMs = Math.max(0, clock.now() - entry.at);
    }
    if (finished) {
      const retryAfter = numberOrUndefined(reply.getHeader('retry-after'));
      if (retryAfter !== undefined) record.retryAfterSeconds = retryAfter;
      readBody(record, entry.payload);
    }
    events.emit({ kind: 'request', at: clock.now(), record });
  }
}

/** An error's code; a subscribe answer's items, page and discontinuity. */
function readBody(record: ExchangeFacts, payload: string | undefined): void {
  if (payload === undefined || payload === '' || (record.status! < 400 && record.operation !== 'subscribe')) return;
  try {
    const body = JSON.parse(payload) as {
      code?: unknown;
      items?: {
        item?: { topic_sequence_number: number; sequence_page: number };
        discontinuity?: { last_topic_sequence: number; new_topic_sequence: number; new_sequence_page: number };
      }[];
    };
    if (record.status! >= 400) {
      if (typeof body.code === 'string') record.code = body.code;
      return;
    }
    for (const element of body.items ?? []) {
      if (element.item) {
        record.items.push(element.item.topic_sequence_number);
        record.page = element.item.sequence_page;
      } else if (element.discontinuity) {
        const d = element.discontinuity;
        record.discontinuity = {
          lastTopicSequence: d.last_topic_sequence,
          newTopicSequence: d.new_topic_sequence,
          newSequencePage: d.new_sequence_page,
        };
        record.page ??= d.new_sequence_page;
      }
    }
  } catch {
    // not JSON: nothing to read
  }
}
