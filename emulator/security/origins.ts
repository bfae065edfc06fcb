import { hostnameOf } from './hosts.js';

// Which web pages may call the emulator from a browser. The two planes differ:
// - the service routes (publish, subscribe) serve browser apps under development: pages on a
//   local origin (http or https on localhost, *.localhost, 127.x.x.x or [::1], any port, like
//   LocalStack's default allow-list), pages the emulator serves itself (same origin), and the
//   origins configured with --cors-origin (`*`: any);
// - the control plane and the dashboard (/_emulator/) can reset, mint tokens and break things:
//   same origin only (the dashboard), plus the origins configured with --control-cors-origin.
// A request without Origin is not a browser's cross-origin call and is not judged here.

export type Plane = 'service' | 'control';

/** The plane a path (or a route's URL) belongs to: everything under `/_emulator/` is the control plane's. */
export function planeOf(path: string): Plane {
  return path.startsWith('/_emulator/') ? 'control' : 'service';
}

export interface OriginSettings {
  /** --cors-origin: origins allowed on the service routes besides local ones; `*` for any. */
  corsOrigins: readonly string[];
  /** --control-cors-origin: origins allowed on the control plane besides its own; `*` for any. */
  controlCorsOrigins: readonly string[];
}

const ORIGIN = /^(https?):\/\/([^/?#@\s]+)$/;

/** A page served from this machine: http(s) on a loopback name or address, any port. */
export function isLocalOrigin(origin: string): boolean {
  const match = ORIGIN.exec(origin.toLowerCase());
  if (!match) return false;
  const name = hostnameOf(match[2]!);
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}

/** A page of the emulator itself: its origin names the Host the request was sent to (http, or https behind a proxy). */
export function isSameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  const lower = origin.toLowerCase();
  const authority = host.toLowerCase();
  return lower === `http://${authority}` || lower === `https://${authority}`;
}

/** Remembered verdicts per origin, without the same-origin part (that depends on the Host); bounded. */
const REMEMBERED_ORIGINS = 256;

export interface OriginPolicy {
  /** Whether a request carrying this Origin, sent to this Host, may use the plane. */
  allows(plane: Plane, origin: string, host: string | undefined): boolean;
  /** The Access-Control-Allow-Origin a plane grants this Origin: the origin, `*`, or none (false). Same-origin needs none. */
  grant(plane: Plane, origin: string | undefined): string | false;
  /** Whether the plane takes requests from any origin (`*` configured). */
  anyOrigin(plane: Plane): boolean;
}

export function originPolicy(settings: OriginSettings): OriginPolicy {
  const lower = (origins: readonly string[]) => new Set(origins.map((o) => o.toLowerCase()));
  const configured = { service: lower(settings.corsOrigins), control: lower(settings.controlCorsOrigins) };
  const any = { service: configured.service.has('*'), control: configured.control.has('*') };
  const remembered = { service: new Map<string, boolean>(), control: new Map<string, boolean>() };
  // Allowed whatever the Host: `*`, a configured origin, and (service only) a local one.
  const listed = (plane: Plane, origin: string): boolean => {
    const memory = remembered[plane];
    let verdict = memory.get(origin);
    if (verdict === undefined) {
      verdict =
        any[plane] || configured[plane].has(origin.toLowerCase()) || (plane === 'service' && isLocalOrigin(origin));
      if (memory.size >= REMEMBERED_ORIGINS) memory.clear();
      memory.set(origin, verdict);
    }
    return verdict;
  };
  return {
    allows: (plane, origin, host) => listed(plane, origin) || isSameOrigin(origin, host),
    grant: (plane, origin) => (origin === undefined || !listed(plane, origin) ? false : any[plane] ? '*' : origin),
    anyOrigin: (plane) => any[plane],
  };
}
