import { isIP } from 'node:net';
import { isLoopback } from '../control/admin-key.js';

// The Host check against DNS rebinding. A page on evil.example can re-point its own name at
// 127.0.0.1: the browser then sends the page's requests to the emulator, same-origin for the
// page, with `Host: evil.example:4545`. So on loopback the emulator serves only the Hosts such a
// page cannot produce (the rule of Vite's and webpack-dev-server's host checks, added after their
// rebinding advisories):
// - `localhost` and `*.localhost`: browsers resolve them to loopback themselves, never by DNS
//   (RFC 6761 §6.3), so no page can rebind them;
// - IP literals (`127.0.0.1`, `[::1]`, a container's mapped address): an address is not a name a
//   page can re-point;
// - the allowed hosts (`--allowed-host`): `name` exactly, `.name` for it and its subdomains,
//   `*` for any Host (the check off).
// Beyond loopback the check is off unless hosts are allowed: a container is reached by names
// nobody can list in advance (a compose service, a CI alias), and there the admin key guards the
// control plane.

/** What follows a Host's name: nothing, or `:` and a port. */
const PORT = /^(:\d{1,5})?$/;

/**
 * The name part of a Host header: lower case, without port, brackets or a trailing dot. A Host
 * that is not a name and an optional port (`[::1]evil.example`, `localhost:80x`, `::1`) is ''
 * (no name), which only `--allowed-host '*'` allows.
 */
export function hostnameOf(host: string): string {
  const value = host.toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end === -1) return value;
    return PORT.test(value.slice(end + 1)) ? value.slice(1, end) : '';
  }
  const colon = value.indexOf(':');
  if (colon !== -1 && !PORT.test(value.slice(colon))) return '';
  const name = colon === -1 ? value : value.slice(0, colon);
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/** A name no web page can make resolve to it: a loopback name or an IP literal. */
export function isRebindingProof(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || isIP(hostname) !== 0;
}

/** Whether one hostname is allowed by `--allowed-host` entries (`name`, `.name`, `*`). */
export function isAllowedHostname(hostname: string, allowedHosts: readonly string[]): boolean {
  if (isRebindingProof(hostname)) return true;
  for (const entry of allowedHosts) {
    const allowed = entry.toLowerCase();
    if (allowed === '*' || allowed === hostname) return true;
    if (allowed.startsWith('.') && (hostname === allowed.slice(1) || hostname.endsWith(allowed))) return true;
  }
  return false;
}

/** Whether the Host check applies: on loopback, or wherever hosts are allowed explicitly; never with `*`. */
export function hostCheckApplies(listenHost: string, allowedHosts: readonly string[]): boolean {
  if (allowedHosts.includes('*')) return false;
  return isLoopback(listenHost) || allowedHosts.length > 0;
}

/** Host headers remembered as allowed; past this many the memory starts over (a bound, not a cache policy). */
const REMEMBERED_HOSTS = 256;

/**
 * The per-request Host check, or undefined when it does not apply. It runs on every request: the
 * last Host allowed costs a string comparison, another seen before and allowed a Set lookup; only
 * a new Host is parsed.
 */
export function hostCheck(
  listenHost: string,
  allowedHosts: readonly string[],
): ((host: string) => boolean) | undefined {
  if (!hostCheckApplies(listenHost, allowedHosts)) return undefined;
  const allowed = new Set<string>();
  // A client sends the same Host on every request: the last one allowed is compared first.
  let last: string | undefined;
  return (host) => {
    if (host === last) return true;
    if (!allowed.has(host)) {
      if (!isAllowedHostname(hostnameOf(host), allowedHosts)) return false;
      if (allowed.size >= REMEMBERED_HOSTS) allowed.clear();
      allowed.add(host);
    }
    last = host;
    return true;
  };
}
