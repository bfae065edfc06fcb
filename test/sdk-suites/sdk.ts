import { randomUUID } from 'node:crypto';
import {
  MomentoErrorCode,
  CacheClient,
  Configurations,
  CreateCache,
  CredentialProvider,
  TopicClient,
  TopicConfigurations,
  type Configuration,
  type Middleware,
  type MiddlewareRequestHandler,
  type SubscribeCallOptions,
  type TopicConfiguration,
} from '@gomomento/sdk';
import type {
  MiddlewareMessage,
  MiddlewareMetadata,
  MiddlewareStatus,
} from '@gomomento/sdk/dist/src/config/middleware/middleware.js';
import { MomentoRPCMethod } from '@gomomento/sdk/dist/src/config/retry/momento-rpc-method.js';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { momentoLocalMiddleware, type MomentoLocalMetadata } from '../grpc/harness.js';

// What the rewritten SDK suites share: the provider's SDK pointed at the suite's emulator as at
// momento-local, a fresh cache per case (as the SDK's WithCacheAndCacheClient makes one), the
// test-admin port, and a count of the attempts the SDK's retry strategies make.

export const emulator = inject('sdkEmulator');

export const momentoLocal = () =>
  CredentialProvider.forMomentoLocal({ hostname: '127.0.0.1', port: emulator.grpcPort });

// Against two replicas, each file's calls must have reached both (the journal read on one replica
// gathers every replica's, each entry naming its replica): else it proved nothing about sharing.
if (emulator.replicas)
  afterAll(async () => {
    const journal = (await (await fetch(`${emulator.baseUrl}/_emulator/requests?protocol=grpc&limit=500`)).json()) as {
      entries: { replica?: string }[];
    };
    expect(new Set(journal.entries.map((entry) => entry.replica)).size, 'replicas this file reached').toBe(2);
  });

/**
 * The suites' configuration (the SDK's Laptop one). Against two replicas it opens three
 * connections, which the proxy hands to one replica and the other in turn: the SDK sends its
 * calls round the connections, so consecutive calls go to both replicas.
 */
export const laptop = (): Configuration =>
  emulator.replicas ? Configurations.Laptop.v1().withNumConnections(3) : Configurations.Laptop.v1();

/**
 * Every attempt the SDK sends, retries included (a late-loaded middleware runs inside the SDK's
 * retry interceptor): which cache, which request, when.
 */
export class Attempts implements Middleware {
  readonly shouldLoadLate = true;
  readonly seen: { cache: string | undefined; request: string; atMs: number }[] = [];

  onNewRequest(): MiddlewareRequestHandler {
    let cache: string | undefined;
    const seen = this.seen;
    return {
      onRequestMetadata: (metadata: MiddlewareMetadata) => {
        cache = metadata.toJsonObject()['cache']?.[0]?.toString();
        return Promise.resolve(metadata);
      },
      onRequestBody: (request: MiddlewareMessage) => {
        seen.push({ cache, request: request.constructorName(), atMs: performance.now() });
        return Promise.resolve(request);
      },
      onResponseMetadata: (metadata: MiddlewareMetadata) => Promise.resolve(metadata),
      onResponseBody: (response: MiddlewareMessage | null) => Promise.resolve(response),
      onResponseStatus: (status: MiddlewareStatus) => Promise.resolve(status),
    };
  }

  private of(cache: string, request: string) {
    return this.seen.filter((a) => a.cache === cache && a.request === request);
  }

  /** Attempts after the first for one request type on one cache (`_GetRequest`, `_IncrementRequest`). */
  retries(cache: string, request: string): number {
    return Math.max(0, this.of(cache, request).length - 1);
  }

  /** The mean time between consecutive attempts, in milliseconds. */
  meanGapMs(cache: string, request: string): number {
    const times = this.of(cache, request).map((a) => a.atMs);
    return times.length < 2 ? 0 : (times.at(-1)! - times[0]!) / (times.length - 1);
  }
}

/** A cache made for one case and deleted after it, by a client without the case's faults. */
export async function withFreshCache<T>(body: (cacheName: string) => Promise<T>): Promise<T> {
  const admin = await CacheClient.create({
    configuration: laptop(),
    credentialProvider: momentoLocal(),
    defaultTtlSeconds: 60,
  });
  const cacheName = `sdk-suite-${randomUUID()}`;
  try {
    const created = await admin.createCache(cacheName);
    if (!(created instanceof CreateCache.Success)) throw new Error(`createCache: ${created.toString()}`);
    return await body(cacheName);
  } finally {
    await admin.deleteCache(cacheName);
    admin.close();
  }
}

/** A cache client with momento-local's fault metadata and an attempt counter, on a fresh cache. */
export function withCacheClient<T>(
  configure: (configuration: Configuration) => Configuration,
  metadata: MomentoLocalMetadata,
  body: (cache: CacheClient, cacheName: string, attempts: Attempts) => Promise<T>,
): Promise<T> {
  return withFreshCache(async (cacheName) => {
    const attempts = new Attempts();
    const configuration = configure(laptop()).withMiddlewares([...momentoLocalMiddleware(metadata), attempts]);
    const cache = await CacheClient.create({
      configuration,
      credentialProvider: momentoLocal(),
      defaultTtlSeconds: 60,
    });
    try {
      return await body(cache, cacheName, attempts);
    } finally {
      cache.close();
    }
  });
}

/** A topic client with momento-local's fault metadata, on a fresh cache. */
export function withTopicClient<T>(
  configure: (configuration: TopicConfiguration) => TopicConfiguration,
  metadata: MomentoLocalMetadata,
  body: (topics: TopicClient, cacheName: string) => Promise<T>,
): Promise<T> {
  return withFreshCache(async (cacheName) => {
    const configuration = configure(TopicConfigurations.Default.latest()).withMiddlewares(
      momentoLocalMiddleware(metadata),
    );
    return body(new TopicClient({ configuration, credentialProvider: momentoLocal() }), cacheName);
  });
}

/** momento-local's test-admin port, as the SDK's TestAdminClient calls it. */
export const testAdmin = {
  block: () => testAdminCall('/block'),
  unblock: () => testAdminCall('/unblock'),
};

async function testAdminCall(path: string): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${emulator.testAdminPort}${path}`);
  if (response.status !== 200) throw new Error(`test-admin ${path}: ${response.status} ${await response.text()}`);
}

/** Subscribers waiting on one topic now, as the emulator's state lists them. */
export async function waitingOn(cacheName: string, topic: string): Promise<number> {
  const state = (await (await fetch(`${emulator.baseUrl}/_emulator/state`)).json()) as {
    waitingSubscribers: { cache: string; topic: string }[];
  };
  return state.waitingSubscribers.filter((w) => w.cache === cacheName && w.topic === topic).length;
}

/** Counts of what a subscription's callbacks were told, with the options that count them. */
export function counted() {
  const seen = { items: 0, errors: [] as string[], lost: 0, heartbeats: 0, ended: 0 };
  const options: SubscribeCallOptions = {
    onItem: () => void seen.items++,
    onError: (e) => void seen.errors.push(e.errorCode()),
    onConnectionLost: () => void seen.lost++,
    onHeartbeat: () => void seen.heartbeats++,
    onSubscriptionEnd: () => void seen.ended++,
  };
  return { seen, options };
}

/** momento-local's metadata that ends each subscription stream with `code` after three messages. */
export const streamErrorAfterThree = (code: MomentoErrorCode): MomentoLocalMetadata => ({
  streamError: code,
  streamErrorRpcs: [MomentoRPCMethod.TopicSubscribe],
  streamErrorMessageLimit: 3,
});

/** The SDK's own check of an empty cache name, which every call makes before it sends anything (its ItBehavesLikeItValidatesCacheName). */
export function validatesCacheName(call: (cache: string) => Promise<unknown>): void {
  it('validates its cache name', async () => {
    const response = (await call('   ')) as { errorCode(): string; message(): string };
    expect(response.errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
    expect(response.message()).toBe('Invalid argument passed to Momento client: cache name must not be empty');
  });
}

/** A cache client and a fresh cache for a whole test file: made before its tests, deleted after them. */
export function fileCache(): { client: CacheClient; cacheName: string } {
  const shared = {} as { client: CacheClient; cacheName: string };
  let done: (() => void) | undefined;
  beforeAll(async () => {
    shared.client = await CacheClient.create({
      configuration: laptop(),
      credentialProvider: momentoLocal(),
      defaultTtlSeconds: 60,
    });
    await new Promise<void>((ready) => {
      void withFreshCache(
        (name) =>
          new Promise<void>((finish) => {
            shared.cacheName = name;
            done = finish;
            ready();
          }),
      );
    });
  });
  afterAll(() => {
    done?.();
    shared.client?.close();
  });
  return shared;
}
