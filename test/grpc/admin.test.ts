import {
  AuthClient,
  CacheClient,
  Configurations,
  CreateCache,
  CredentialProvider,
  DeleteCache,
  DisposableTokenScopes,
  ExpiresIn,
  GenerateDisposableToken,
  ListCaches,
  MomentoErrorCode,
  TopicClient,
  TopicConfigurations,
  TopicPublish,
  CacheFlush,
} from '@gomomento/sdk';
import { createRequire } from 'node:module';
import type { control_client as ControlTypes } from '@gomomento/generated-types/dist/controlclient.js';
import { credentials } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';

// What an SDK set-up calls besides Publish and Subscribe: the AuthClient mints the emulator's
// tokens (GenerateDisposableToken), the CacheClient creates, lists and deletes caches; any other
// method answers UNIMPLEMENTED naming it.

let emulator: RunningEmulator;
let local: ReturnType<typeof CredentialProvider.forMomentoLocal>;
let caches: CacheClient;
let topics: TopicClient;

/** A credential of one of the emulator's tokens, with the emulator as every endpoint. */
function withToken(token: string) {
  const at = emulator.grpcEndpoint!;
  return CredentialProvider.fromString({
    apiKey: token,
    endpointOverrides: { cacheEndpoint: at, controlEndpoint: at, tokenEndpoint: at, secureConnection: false },
  });
}

const topicClient = (credentialProvider = local) =>
  new TopicClient({ configuration: TopicConfigurations.Default.latest(), credentialProvider });

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', grpcPort: 0 });
  const [hostname, port] = emulator.grpcEndpoint!.split(':');
  local = CredentialProvider.forMomentoLocal({ hostname: hostname!, port: Number(port) });
  caches = new CacheClient({
    configuration: Configurations.Laptop.v1(),
    credentialProvider: local,
    defaultTtlSeconds: 60,
  });
  topics = topicClient();
});
afterAll(async () => {
  caches?.close();
  await emulator?.close();
});

describe("the SDK's AuthClient", () => {
  it('mints a disposable token the emulator honours: its topic, its id, its expiry', async () => {
    const auth = new AuthClient({ credentialProvider: local });
    const minted = await auth.generateDisposableToken(
      DisposableTokenScopes.topicPublishSubscribe('default-cache', 'minted-topic'),
      ExpiresIn.minutes(30),
      { tokenId: 'sdk-minted' },
    );
    expect(minted).toBeInstanceOf(GenerateDisposableToken.Success);
    const success = minted as GenerateDisposableToken.Success;
    expect(success.expiresAt.epoch() - Math.floor(Date.now() / 1000)).toBeGreaterThan(29 * 60);
    const scoped = topicClient(withToken(success.authToken));
    expect(await scoped.publish('default-cache', 'minted-topic', 'mine')).toBeInstanceOf(TopicPublish.Success);
    const elsewhere = await scoped.publish('default-cache', 'another-topic', 'not mine');
    expect((elsewhere as TopicPublish.Error).errorCode()).toBe(MomentoErrorCode.PERMISSION_ERROR);
    const [entry] = (await emulator.requests({ protocol: 'grpc', topic: 'minted-topic' })).entries;
    expect(entry).toMatchObject({ client: 'token:sdk-minted', status: 200 });
  });

  it('refuses a token the emulator signed as the caller (only an API key mints); a cache scope grants no topic', async () => {
    const { token } = await emulator.issueToken({
      permissions: [{ role: 'publishsubscribe', cache: '*', topic: '*' }],
    });
    const byToken = await new AuthClient({ credentialProvider: withToken(token) }).generateDisposableToken(
      DisposableTokenScopes.topicPublishSubscribe('default-cache', 't'),
      ExpiresIn.minutes(5),
    );
    expect((byToken as GenerateDisposableToken.Error).errorCode()).toBe(MomentoErrorCode.PERMISSION_ERROR);
    const cacheOnly = await new AuthClient({ credentialProvider: local }).generateDisposableToken(
      DisposableTokenScopes.cacheReadWrite('default-cache'),
      ExpiresIn.minutes(5),
    );
    expect(cacheOnly).toBeInstanceOf(GenerateDisposableToken.Success);
    const published = await topicClient(withToken((cacheOnly as GenerateDisposableToken.Success).authToken)).publish(
      'default-cache',
      't',
      'x',
    );
    expect((published as TopicPublish.Error).errorCode()).toBe(MomentoErrorCode.PERMISSION_ERROR);
  });
});

describe("the SDK's CacheClient", () => {
  it('creates a cache topics can use, says when it exists, lists it, and deletes it', async () => {
    expect(await caches.createCache('sdk-made')).toBeInstanceOf(CreateCache.Success);
    expect(await caches.createCache('sdk-made')).toBeInstanceOf(CreateCache.AlreadyExists);
    expect(await caches.createCache('default-cache')).toBeInstanceOf(CreateCache.AlreadyExists);
    const listed = (await caches.listCaches()) as ListCaches.Success;
    expect(listed.getCaches().map((c) => c.getName())).toEqual(['default-cache', 'sdk-made']);
    expect(await topics.publish('sdk-made', 't', 'in a new cache')).toBeInstanceOf(TopicPublish.Success);
    expect(emulator.state().topics.some((t) => t.cache === 'sdk-made')).toBe(true);

    expect(await caches.deleteCache('sdk-made')).toBeInstanceOf(DeleteCache.Success);
    const gone = await topics.publish('sdk-made', 't', 'too late');
    expect((gone as TopicPublish.Error).errorCode()).toBe(MomentoErrorCode.NOT_FOUND_ERROR);
    const again = await caches.deleteCache('sdk-made');
    expect((again as DeleteCache.Error).errorCode()).toBe(MomentoErrorCode.NOT_FOUND_ERROR);
    // Journalled as the gRPC calls they are, under the names of the set-up they belong to.
    const calls = (await emulator.requests({ protocol: 'grpc', cache: 'sdk-made' })).entries.reverse();
    expect(calls.filter((e) => e.operation !== 'publish').map((e) => [e.operation, e.status])).toEqual([
      ['createCache', 200],
      ['createCache', 400],
      ['deleteCache', 200],
      ['deleteCache', 404],
    ]);
  });

  it("cancels a deleted cache's scheduled page changes; one whose cache went another way is logged, not thrown", async () => {
    const { pageChanges, clock, store } = emulator.context;
    const scheduledOn = (cache: string) => pageChanges.scheduled().filter((s) => s.cache === cache);
    await caches.createCache('scheduled');
    pageChanges.afterTime('scheduled', 't', 60_000, 'test');
    expect(scheduledOn('scheduled')).toHaveLength(1);
    await caches.deleteCache('scheduled');
    expect(scheduledOn('scheduled')).toEqual([]);

    await caches.createCache('gone');
    pageChanges.afterTime('gone', 't', 1000, 'test');
    store.deleteCache('gone');
    clock.freeze();
    try {
      expect(() => clock.advance(2000)).not.toThrow();
      expect(scheduledOn('gone')).toEqual([]);
    } finally {
      clock.useRealTime();
    }
  });

  it('comes back to the configured caches on a reset: a created one goes, a deleted one returns', async () => {
    await caches.createCache('until-reset');
    expect(await caches.deleteCache('default-cache')).toBeInstanceOf(DeleteCache.Success);
    emulator.reset();
    const listed = (await caches.listCaches()) as ListCaches.Success;
    expect(listed.getCaches().map((c) => c.getName())).toEqual(['default-cache']);
  });

  it('flushes a cache: its items go, its topics stay; a cache there is not is NOT_FOUND', async () => {
    expect(await caches.flushCache('default-cache')).toBeInstanceOf(CacheFlush.Success);
    const missing = (await caches.flushCache('no-such-cache')) as CacheFlush.Error;
    expect(missing.errorCode()).toBe(MomentoErrorCode.CACHE_NOT_FOUND_ERROR);
  });

  it('answers the methods it does not serve with UNIMPLEMENTED naming them', async () => {
    const control = (
      createRequire(import.meta.url)('@gomomento/generated-types/dist/controlclient.js') as {
        control_client: typeof ControlTypes;
      }
    ).control_client;
    const client = new control.ScsControlClient(emulator.grpcEndpoint!, credentials.createInsecure());
    try {
      const error = await new Promise<{ code: number; details: string }>((resolve) =>
        client.ListSigningKeys(new control._ListSigningKeysRequest(), (e) => resolve(e as never)),
      );
      expect(error.code).toBe(12);
      expect(error.details).toMatch(/does not implement control_client\.ScsControl\/ListSigningKeys/);
    } finally {
      client.close();
    }
  });
});
