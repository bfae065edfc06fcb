import { createRequire } from 'node:module';
import type * as Grpc from '@grpc/grpc-js';
import type { token as TokenTypes } from '@gomomento/generated-types/dist/token.js';
import type { permission_messages as PermissionTypes } from '@gomomento/generated-types/dist/permissionmessages.js';
import type { IssuedToken, TokenRequest } from '../auth/tokens.js';
import { cacheNotFound, EmulatorError } from '../errors.js';
import type { Permission as TokenPermission } from '../../openapi/generated/control-types.js';
import type { AdminOperation, CallRecord } from './calls.js';
import type { GrpcCode } from './status.js';

// The calls an SDK set-up makes besides Publish and Subscribe: `token.Token/GenerateDisposableToken`
// (the SDK's AuthClient) mints the emulator's own tokens, and `control_client.ScsControl`'s
// CreateCache, DeleteCache and ListCaches work on the emulator's caches. Every other method of
// these services answers UNIMPLEMENTED naming it (grpc-js does the same for services not served).
// Only an API key (as against the live service) or the admin key may call them; forMomentoLocal's
// empty credential on the native door while no admin key is set (server.ts, authorizeControl).

const require = createRequire(import.meta.url);

/** What these services need of the emulator; the door hands it over. */
export interface AdminDoor {
  /** Throws unless the caller may use these methods (its credential, or the one in its body, or the admin key). */
  authorize(metadata: Grpc.Metadata, inBody: string | undefined, record: CallRecord): Promise<void>;
  /** The journal's record of the call. */
  record(operation: AdminOperation, call: Grpc.ServerUnaryCall<unknown, unknown>, cache: string | null): CallRecord;
  /** The core's control operations these calls translate to (control/controls.ts). */
  controls: AdminControls;
  /** The status to end a failed call with. */
  serviceError(error: unknown): Partial<Grpc.StatusObject>;
}

/** The control operations the SDK's set-up calls are (EmulatorControls has them). */
export interface AdminControls {
  /** Signs a token; 'sdk': its portable endpoint is the gRPC TLS door's when that is on (EmulatorControls.issueToken). */
  issueToken(request: TokenRequest, audience?: 'http' | 'sdk'): Promise<IssuedToken>;
  cacheNames(): string[];
  /** Creates a cache; false when it exists. Throws past the bound, or when the store cannot (a shared one). */
  createCache(cache: string): boolean;
  /** Deletes a cache, answering its waiting subscribers and ending its streams; false when there is none. */
  deleteCache(cache: string): boolean;
  /** Removes every item of a cache; false when there is no such cache. */
  flushCache(cache: string): boolean;
  /** `result` once the cache's items are changed as asked (on a shared store, after the call returns). */
  settledAfter<T>(result: T): Promise<T>;
}

export interface ServedService {
  definition: Grpc.ServiceDefinition;
  implementation: Grpc.UntypedServiceImplementation;
}

/** The most permissions a token carries (as the control plane's TokenRequest). */
const MAX_PERMISSIONS = 100;

/** An error answered with a gRPC status other than its HTTP status's (ALREADY_EXISTS, UNIMPLEMENTED). */
function withStatus(error: EmulatorError, grpcStatus: keyof typeof GrpcCode): EmulatorError {
  return Object.assign(error, { grpcStatus });
}

const ROLES: Record<number, TokenPermission['role'] | undefined> = {
  1: 'publishsubscribe', // TopicReadWrite
  2: 'subscribeonly', // TopicReadOnly
  3: 'publishonly', // TopicWriteOnly
};

const CACHE_ROLES: Record<number, TokenPermission['role'] | undefined> = {
  1: 'readwrite', // CacheReadWrite
  2: 'readonly', // CacheReadOnly
  3: 'writeonly', // CacheWriteOnly
};

/** A cache permission of the SDK's as the emulator's: role, cache, and one key or a key prefix. */
function cachePermissionOf(p: PermissionTypes.PermissionsType.CachePermissions): TokenPermission | undefined {
  const role = CACHE_ROLES[p.role];
  if (role === undefined) return undefined;
  const cache = p.cache === 'cache_selector' ? p.cache_selector.cache_name : '*';
  const items = p.cache_item === 'item_selector' ? p.item_selector : undefined;
  const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
  if (items?.kind === 'key') return { role, cache, key: text(items.key) };
  if (items?.kind === 'key_prefix') return { role, cache, keyPrefix: text(items.key_prefix) };
  return { role, cache };
}

/**
 * The SDK's permissions as the emulator's: its topic permissions (role, cache, topic or topic
 * prefix) and cache permissions (role, cache, key or key prefix); a super user everything.
 * Function permissions grant nothing here (the emulator serves no functions).
 */
export function permissionsOf(permissions: PermissionTypes.Permissions | undefined): TokenPermission[] {
  if (permissions === undefined) return [];
  if (permissions.kind === 'super_user')
    return [
      { role: 'publishsubscribe', cache: '*', topic: '*' },
      { role: 'readwrite', cache: '*' },
    ];
  const out: TokenPermission[] = [];
  for (const p of permissions.explicit?.permissions ?? []) {
    if (p.kind === 'cache_permissions') {
      const permission = cachePermissionOf(p.cache_permissions);
      if (permission) out.push(permission);
      continue;
    }
    if (p.kind !== 'topic_permissions') continue;
    const t = p.topic_permissions;
    const role = ROLES[t.role];
    if (role === undefined) continue;
    const cache = t.cache === 'cache_selector' ? t.cache_selector.cache_name : '*';
    const selector = t.topic === 'topic_selector' ? t.topic_selector : undefined;
    if (selector?.kind === 'topic_name_prefix') out.push({ role, cache, topicPrefix: selector.topic_name_prefix });
    else out.push({ role, cache, topic: selector?.kind === 'topic_name' ? selector.topic_name : '*' });
  }
  return out;
}

function unimplemented(service: string, method: string) {
  return (_call: unknown, callback: Grpc.sendUnaryData<unknown>) =>
    callback({
      code: 12,
      details: `The emulator does not implement ${service}/${method}: it serves Topics (Publish, Subscribe), the cache's scalar calls, GenerateDisposableToken, and CreateCache, DeleteCache, ListCaches and FlushCache.`,
    });
}

/**
 * A unary handler: the caller must be authorized (AdminDoor.authorize); a throw becomes the call's status. The
 * AuthClient sends its credential in the request's `auth_token`, not in the metadata.
 */
function unary<Request extends { auth_token?: string | undefined; cache_name?: string }>(
  door: AdminDoor,
  operation: AdminOperation,
  answer: (request: Request) => unknown,
) {
  return (call: Grpc.ServerUnaryCall<Request, unknown>, callback: Grpc.sendUnaryData<unknown>) => {
    const record = door.record(operation, call, call.request.cache_name ?? null);
    (async () => {
      await door.authorize(call.metadata, call.request.auth_token, record);
      callback(null, await answer(call.request));
      record.end({});
    })().catch((error: unknown) => {
      record.end({ error });
      callback(door.serviceError(error));
    });
  };
}

export function adminServices(door: AdminDoor): ServedService[] {
  const { token } = require('@gomomento/generated-types/dist/token.js') as { token: typeof TokenTypes };
  const { control_client: control } = require('@gomomento/generated-types/dist/controlclient.js') as {
    control_client: typeof import('@gomomento/generated-types/dist/controlclient.js').control_client;
  };

  const tokenService: ServedService = {
    definition: token.UnimplementedTokenService.definition,
    implementation: {
      GenerateDisposableToken: unary<TokenTypes._GenerateDisposableTokenRequest>(
        door,
        'generateDisposableToken',
        async (request) => {
          const permissions = permissionsOf(request.has_permissions ? request.permissions : undefined);
          if (permissions.length === 0)
            throw new EmulatorError(
              'invalid_request',
              'The token would grant no permission (the emulator serves topics and cache items, not functions).',
            );
          if (permissions.length > MAX_PERMISSIONS)
            throw new EmulatorError('invalid_request', `A token may carry at most ${MAX_PERMISSIONS} permissions.`);
          for (const p of permissions)
            for (const name of [p.cache, p.topic ?? '', p.topicPrefix ?? '', p.key ?? '', p.keyPrefix ?? ''])
              if (name.length > 255)
                throw new EmulatorError(
                  'invalid_parameter',
                  'Invalid request: a cache or topic name in a permission is longer than 255 characters.',
                );
          const tokenRequest: TokenRequest = {
            permissions,
            ttlSeconds: request.expires?.valid_for_seconds ?? 0,
            ...(request.token_id !== '' ? { tokenId: request.token_id } : {}),
          };
          let issued: IssuedToken;
          try {
            issued = await door.controls.issueToken(tokenRequest);
          } catch (error) {
            if (error instanceof RangeError) throw new EmulatorError('invalid_request', error.message);
            throw error;
          }
          const { api_key, endpoint } = JSON.parse(Buffer.from(issued.token, 'base64').toString('utf8')) as {
            api_key: string;
            endpoint: string;
          };
          return new token._GenerateDisposableTokenResponse({
            api_key,
            endpoint,
            valid_until: Math.floor(Date.parse(issued.expiresAt) / 1000),
          });
        },
      ),
    },
  };

  const served = ['CreateCache', 'DeleteCache', 'ListCaches', 'FlushCache'];
  const definition = control.UnimplementedScsControlService.definition as unknown as Grpc.ServiceDefinition;
  const controlImplementation: Grpc.UntypedServiceImplementation = Object.fromEntries(
    Object.keys(definition)
      .filter((method) => !served.includes(method))
      .map((method) => [method, unimplemented('control_client.ScsControl', method)]),
  );
  Object.assign(controlImplementation, {
    CreateCache: unary<{ cache_name: string; auth_token?: string }>(door, 'createCache', async ({ cache_name }) => {
      if (!(await door.controls.settledAfter(door.controls.createCache(cache_name))))
        throw withStatus(
          new EmulatorError('invalid_request', `The cache '${cache_name}' already exists.`),
          'ALREADY_EXISTS',
        );
      return new control._CreateCacheResponse();
    }),
    DeleteCache: unary<{ cache_name: string; auth_token?: string }>(door, 'deleteCache', async ({ cache_name }) => {
      if (!(await door.controls.settledAfter(door.controls.deleteCache(cache_name)))) throw cacheNotFound(cache_name);
      return new control._DeleteCacheResponse();
    }),
    FlushCache: unary<{ cache_name: string; auth_token?: string }>(door, 'flushCache', async ({ cache_name }) => {
      if (!(await door.controls.settledAfter(door.controls.flushCache(cache_name)))) throw cacheNotFound(cache_name);
      return new control._FlushCacheResponse();
    }),
    ListCaches: unary<{ auth_token?: string }>(
      door,
      'listCaches',
      () =>
        new control._ListCachesResponse({
          cache: door.controls.cacheNames().map((cache_name) => new control._Cache({ cache_name })),
          next_token: '',
        }),
    ),
  });
  return [tokenService, { definition, implementation: controlImplementation }];
}
