import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from './auth/authenticator.js';
import type { SharedBackend } from './backend/backend.js';
import type { Access } from './auth/permissions.js';
import type { Clock } from './clock.js';
import type { EmulatorEvents } from './events.js';
import type { FaultInjector } from './faults/injector.js';
import type { PageChanges } from './topics/page-changes.js';
import type { AccountLimits } from './limits/account-limits.js';
import type { BodyKind } from './openapi-routes.js';
import type { EmulatorSettings } from './settings.js';
import type { TopicStore } from './topics/store.js';
import type { WaitingSubscribers } from './waiting.js';

/** What every handler may use: the emulator's state and services, injected once. */
export interface EmulatorContext {
  settings: EmulatorSettings;
  store: TopicStore;
  /** With a shared store (Redis): what the replicas share besides the topics (backend/backend.ts). */
  shared: SharedBackend | undefined;
  auth: Authenticator;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Fault rules and chaos (the control plane's). */
  faults: FaultInjector;
  /** The account limits profile. */
  limits: AccountLimits;
  /** Subscribers waiting now (long-polls and gRPC streams): the one registry (and count) of them. */
  waiting: WaitingSubscribers;
  /** Page changes on demand and scheduled, each logged with why. */
  pageChanges: PageChanges;
  /** What happens, as one stream: the journal, the dashboard and metrics listen. */
  events: EmulatorEvents;
}

/** One operation of an OpenAPI document, implemented. */
export interface OperationHandler {
  operationId: string;
  /** The access the caller's token must grant on the addressed topic; none for open endpoints. */
  access?: Access;
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
