import type { Permission as PermissionSchema } from '../../openapi/generated/control-types.js';
import { roles } from '../documents.js';
import { EmulatorError } from '../errors.js';

// Disposable-token permissions as the provider models them (service-facts "Authentication"):
// a topic role scoped to all caches or one, and to all topics, one topic or a topic-name prefix;
// or a cache role on a cache's items, narrowed to one key or a key prefix. Any matching
// permission grants access; a topic role grants nothing on items, a cache role nothing on topics.

export type Role = PermissionSchema['role'];
export { roles };
/** What a request does: to a topic (publish, subscribe) or to a cache's items (read, write). */
export type Access = 'publish' | 'subscribe' | 'read' | 'write';

export type Permission = PermissionSchema;

const roleGrants: Record<Role, readonly Access[]> = {
  publishsubscribe: ['publish', 'subscribe'],
  subscribeonly: ['subscribe'],
  publishonly: ['publish'],
  readwrite: ['read', 'write'],
  readonly: ['read'],
  writeonly: ['write'],
};

const TOPIC_ROLES: ReadonlySet<Role> = new Set(['publishsubscribe', 'subscribeonly', 'publishonly']);

/** Whether a role is a topic role (else a cache role, on items). */
export const isTopicRole = (role: Role): boolean => TOPIC_ROLES.has(role);

/** `name` is the topic, or the item's key as text. */
function matches(permission: Permission, access: Access, cache: string, name: string): boolean {
  if (!roleGrants[permission.role].includes(access)) return false;
  if (permission.cache !== '*' && permission.cache !== cache) return false;
  if (permission.topicPrefix !== undefined) return name.startsWith(permission.topicPrefix);
  if (permission.keyPrefix !== undefined) return name.startsWith(permission.keyPrefix);
  if (permission.key !== undefined) return permission.key === name;
  return permission.topic === undefined || permission.topic === '*' || permission.topic === name;
}

export function grants(permissions: readonly Permission[], access: Access, cache: string, name: string): boolean {
  // A loop, not some(): on every service request, and a closure per call is garbage per request.
  for (const permission of permissions) if (matches(permission, access, cache, name)) return true;
  return false;
}

export function requireAccess(permissions: readonly Permission[], access: Access, cache: string, name: string): void {
  if (!grants(permissions, access, cache, name)) {
    const what = access === 'read' || access === 'write' ? `item '${name}'` : `topic '${name}'`;
    throw new EmulatorError(
      'permission_denied',
      `The auth token does not grant ${access} access to ${what} in cache '${cache}'.`,
    );
  }
}

/** Checks an untrusted value (token claims, a request body) and names what is wrong. */
export function parsePermissions(value: unknown): { permissions: Permission[] } | { problem: string } {
  if (!Array.isArray(value) || value.length === 0) return { problem: 'permissions must be a non-empty array' };
  const permissions: Permission[] = [];
  for (const [i, raw] of value.entries()) {
    if (typeof raw !== 'object' || raw === null) return { problem: `permissions[${i}] must be an object` };
    const p = raw as Record<string, unknown>;
    if (!roles.includes(p.role as Role))
      return { problem: `permissions[${i}].role must be one of ${roles.join(', ')}` };
    if (typeof p.cache !== 'string' || p.cache === '')
      return { problem: `permissions[${i}].cache must be a cache name or '*'` };
    if (p.topic !== undefined && (typeof p.topic !== 'string' || p.topic === ''))
      return { problem: `permissions[${i}].topic must be a topic name or '*'` };
    if (p.topicPrefix !== undefined && typeof p.topicPrefix !== 'string')
      return { problem: `permissions[${i}].topicPrefix must be a string` };
    if (p.topic !== undefined && p.topicPrefix !== undefined)
      return { problem: `permissions[${i}] may set topic or topicPrefix, not both` };
    if (p.key !== undefined && (typeof p.key !== 'string' || p.key === ''))
      return { problem: `permissions[${i}].key must be a key` };
    if (p.keyPrefix !== undefined && typeof p.keyPrefix !== 'string')
      return { problem: `permissions[${i}].keyPrefix must be a string` };
    if (p.key !== undefined && p.keyPrefix !== undefined)
      return { problem: `permissions[${i}] may set key or keyPrefix, not both` };
    const topicRole = isTopicRole(p.role as Role);
    if (topicRole && (p.key !== undefined || p.keyPrefix !== undefined))
      return { problem: `permissions[${i}]: key and keyPrefix go with a cache role (readwrite, readonly, writeonly)` };
    if (!topicRole && (p.topic !== undefined || p.topicPrefix !== undefined))
      return { problem: `permissions[${i}]: topic and topicPrefix go with a topic role (publishsubscribe, ...)` };
    const allowed = new Set(['role', 'cache', 'topic', 'topicPrefix', 'key', 'keyPrefix']);
    const extra = Object.keys(p).find((k) => !allowed.has(k));
    if (extra) return { problem: `permissions[${i}] has an unknown member '${extra}'` };
    permissions.push({
      role: p.role as Role,
      cache: p.cache,
      ...(p.topic !== undefined ? { topic: p.topic } : {}),
      ...(p.topicPrefix !== undefined ? { topicPrefix: p.topicPrefix } : {}),
      ...(p.key !== undefined ? { key: p.key } : {}),
      ...(p.keyPrefix !== undefined ? { keyPrefix: p.keyPrefix } : {}),
    });
  }
  return { permissions };
}
