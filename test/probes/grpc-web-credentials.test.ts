import { createRequire } from 'node:module';
import { credentials, Metadata } from '@grpc/grpc-js';
import type { token as TokenTypes } from '@gomomento/generated-types/dist/token.js';
import type { control_client as ControlTypes } from '@gomomento/generated-types/dist/controlclient.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { startGrpcEmulator, webFrame } from '../grpc/harness.js';

// Probe (gRPC-web without a credential had full access): the empty credential that
// `forMomentoLocal` sends was full access on the browser door too, so a page on
// http://localhost:3000 minted a super-user token and deleted the configured cache over gRPC-web
// with no Authorization. A page gets no more than the HTTP API gives it: gRPC-web needs a
// credential, and the control methods (tokens, caches) need an API key or the admin key on
// every door.

const require = createRequire(import.meta.url);
const { token } = require('@gomomento/generated-types/dist/token.js') as { token: typeof TokenTypes };
const { control_client: control } = require('@gomomento/generated-types/dist/controlclient.js') as {
  control_client: typeof ControlTypes;
};
const { permission_messages: permissions } = require('@gomomento/generated-types/dist/permissionmessages.js') as {
  permission_messages: typeof import('@gomomento/generated-types/dist/permissionmessages.js').permission_messages;
};

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const frame = webFrame;
const superUserToken = () =>
  new token._GenerateDisposableTokenRequest({
    expires: new token._GenerateDisposableTokenRequest.Expires({ valid_for_seconds: 600 }),
    permissions: new permissions.Permissions({ super_user: permissions.SuperUserPermissions.SuperUser }),
  });

/** A gRPC-web call as a page on a local origin sends it; its grpc-status and the answer's HTTP status. */
async function webCall(path: string, message: Uint8Array, headers: Record<string, string> = {}) {
  const response = await fetch(`${emulator!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/grpc-web+proto', origin: 'http://localhost:3000', ...headers },
    body: frame(message),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const status = /grpc-status: (\d+)/.exec(bytes.toString('latin1'))?.[1];
  return { http: response.status, grpcStatus: status === undefined ? undefined : Number(status) };
}

const cachesOf = async () => {
  const response = await fetch(`${emulator!.url}/_emulator/state`);
  return ((await response.json()) as { caches: string[] }).caches;
};

/** A native gRPC unary call to the control service; resolves with its status code (0: OK). */
function nativeDeleteCache(cache: string, metadata = new Metadata()): Promise<number> {
  const client = new control.ScsControlClient(emulator!.grpcEndpoint!, credentials.createInsecure());
  return new Promise<number>((resolve) =>
    client.DeleteCache(new control._DeleteCacheRequest({ cache_name: cache }), metadata, (error) => {
      client.close();
      resolve(error ? error.code : 0);
    }),
  );
}

const UNAUTHENTICATED = 16;

describe('gRPC-web without a credential', () => {
  it('mints no token for a page: GenerateDisposableToken without Authorization is UNAUTHENTICATED', async () => {
    emulator = await startGrpcEmulator();
    const answer = await webCall('/token.Token/GenerateDisposableToken', superUserToken().serializeBinary());
    expect(answer).toEqual({ http: 200, grpcStatus: UNAUTHENTICATED });
  });

  it('deletes no cache for a page: DeleteCache without Authorization is UNAUTHENTICATED, the cache stays', async () => {
    emulator = await startGrpcEmulator();
    const request = new control._DeleteCacheRequest({ cache_name: 'default-cache' });
    expect(await webCall('/control_client.ScsControl/DeleteCache', request.serializeBinary())).toEqual({
      http: 200,
      grpcStatus: UNAUTHENTICATED,
    });
    expect(await cachesOf()).toContain('default-cache');
  });

  it('is refused whatever --grpc-empty-token says, and a header claiming the native door changes nothing', async () => {
    emulator = await startGrpcEmulator({ grpcEmptyToken: 'full-access' });
    const request = new control._DeleteCacheRequest({ cache_name: 'default-cache' });
    const answer = await webCall('/control_client.ScsControl/DeleteCache', request.serializeBinary(), {
      'x-emulator-door': 'grpc',
    });
    expect(answer.grpcStatus).toBe(UNAUTHENTICATED);
    expect(await cachesOf()).toContain('default-cache');
  });

  it('serves a page that holds an API key, as the HTTP API does', async () => {
    emulator = await startGrpcEmulator();
    const answer = await webCall('/token.Token/GenerateDisposableToken', superUserToken().serializeBinary(), {
      authorization: emulator.apiKey,
    });
    expect(answer).toEqual({ http: 200, grpcStatus: 0 });
  });

  it('refuses a page on a foreign origin before any gRPC: 403 origin_not_allowed', async () => {
    emulator = await startGrpcEmulator();
    const answer = await webCall('/token.Token/GenerateDisposableToken', superUserToken().serializeBinary(), {
      authorization: emulator.apiKey,
      origin: 'https://evil.example',
    });
    expect(answer.http).toBe(403);
  });
});

describe('the control methods on the native gRPC door', () => {
  it("take forMomentoLocal's empty credential while no admin key is set, as momento-local does", async () => {
    emulator = await startGrpcEmulator({ caches: ['default-cache', 'spare'] });
    expect(await nativeDeleteCache('spare')).toBe(0);
  });

  it('with an admin key, need an API key or the admin key: the empty credential is UNAUTHENTICATED', async () => {
    emulator = await startGrpcEmulator({ caches: ['default-cache', 'a', 'b'], adminKey: 'the-admin-key' });
    expect(await nativeDeleteCache('a')).toBe(UNAUTHENTICATED);
    const withAdminKey = new Metadata();
    withAdminKey.set('x-emulator-admin-key', 'the-admin-key');
    expect(await nativeDeleteCache('a', withAdminKey)).toBe(0);
    const wrongAdminKey = new Metadata();
    wrongAdminKey.set('x-emulator-admin-key', 'not-the-key');
    expect(await nativeDeleteCache('b', wrongAdminKey)).toBe(7); // PERMISSION_DENIED
    const withApiKey = new Metadata();
    withApiKey.set('authorization', emulator.apiKey);
    expect(await nativeDeleteCache('b', withApiKey)).toBe(0);
  });
});
