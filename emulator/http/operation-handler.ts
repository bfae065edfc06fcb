import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Access } from '../auth/permissions.js';
import type { BodyKind } from '../openapi-routes.js';

// The shape of an HTTP operation (the Topics API's and the control plane's): the HTTP door's
// own, on fastify's request and reply.

/** One operation of an OpenAPI document, implemented. */
export interface OperationHandler {
  operationId: string;
  /** The access the caller's token must grant on the addressed topic or item; none for open endpoints. */
  access?: Access;
  /** It checks permission, faults and limits itself (the cache's: its key is in the query), once authenticated. */
  admitsItself?: boolean;
  /**
   * Answers the request. Synchronous where it can be (the service operations): fastify then
   * sends what the handler sent without a promise per request; a throw becomes the error reply.
   */
  handle(request: FastifyRequest, reply: FastifyReply, route: RouteInfo): void | Promise<unknown>;
}

export interface RouteInfo {
  bodyKinds: ReadonlyMap<string, BodyKind>;
}

export interface TopicParams {
  cacheName: string;
  topicName: string;
}
