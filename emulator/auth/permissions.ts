import type { Permission as PermissionSchema } from '../../openapi/generated/control-types.js';
import { roles } from '../documents.js';
import { EmulatorError } from '../errors.js';

// Disposable-token permissions as the provider models them (service-facts "Authentication"):
// a role, scoped to all caches or one, and to all topics, one topic or a topic-name prefix.
// Any matching permission grants access.

export type Role = PermissionSchema['role'];
export { roles };
export type Access = 'publish' | 'subscribe';

export type Permission = PermissionSchema;

const roleGrants: Record<Role, readonly Access[]> = {
  publishsubscribe: ['publish', 'subscribe'],
  subscribeonly: ['subscribe'],
  publishonly: ['publish'],
};

function matches(permission: Permission, access: Access, cache: string, topic: string): boolean {
  if (!roleGrants[permission.role].includes(access)) return false;
  if (permission.cache !== '*' && permission.cache !== cache) return false;
  if (permission.topicPrefix !== undefined) return topic.startsWith(permission.topicPrefix);
  return permission.topic === undefined || permission.topic === '*' || permission.topic === topic;
}

export function grants(permissions: readonly Permission[], access: Access, cache: string, topic: string): boolean {
  // A loop, not some(): on every service request, and a closure per call is garbage per request.
  for (const permission of permissions) if (matches(permission, access, cache, topic)) return true;
  return false;
}

export function requireAccess(permissions: readonly Permission[], access: Access, cache: string, topic: string): void {
  if (!grants(permissions, access, cache, topic)) {
    throw new EmulatorError(
      'permission_denied',
      `The auth token does not grant ${access} access to topic '${topic}' in cache '${cache}'.`,
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
    const allowed = new Set(['role', 'cache', 'topic', 'topicPrefix']);
    const extra = Object.keys(p).find((k) => !allowed.has(k));
    if (extra) return { problem: `permissions[${i}] has an unknown member '${extra}'` };
    permissions.push({
      role: p.role as Role,
      cache: p.cache,
      ...(p.topic !== undefined ? { topic: p.topic } : {}),
      ...(p.topicPrefix !== undefined ? { topicPrefix: p.topicPrefix } : {}),
    });
  }
  return { permissions };
}
