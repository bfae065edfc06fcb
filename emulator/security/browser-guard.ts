import { EmulatorError } from '../errors.js';
import { hostCheck } from './hosts.js';
import { originPolicy, type OriginPolicy, type OriginSettings, type Plane } from './origins.js';

// What a browser may not do, decided from a request's headers alone (no I/O): the one decision
// the connection guard applies to every request, before routing's hooks, auth or the body.
//
// 1. A Host a rebinding page could send (hosts.ts): 403 host_not_allowed.
// 2. An Origin the route's plane does not allow (origins.ts): 403 origin_not_allowed. Browsers
//    send Origin on every cross-origin request and on every POST, PUT and DELETE, same-origin
//    ones included: a cross-site form post or `fetch(..., {mode: 'no-cors'})` carries it, so a
//    bodiless POST /_emulator/reset from another site is refused here, whatever its body.
// 3. No Origin, but Sec-Fetch-Site says another site sent a state-changing request (a browser
//    that left Origin out): refused the same way. Requests from curl, SDKs and tests carry
//    neither header and pass.

export interface BrowserFacts {
  method: string;
  host: string | undefined;
  origin: string | undefined;
  fetchSite: string | undefined;
  /** Which plane the route belongs to: `/_emulator/...` is the control plane. */
  plane: Plane;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface BrowserGuard {
  /** The Host check alone (every request); undefined when it does not apply. */
  readonly hostAllowed: ((host: string) => boolean) | undefined;
  readonly origins: OriginPolicy;
  /** The refusal for a request, or undefined to serve it. */
  refusal(facts: BrowserFacts): EmulatorError | undefined;
}

export interface BrowserGuardSettings extends OriginSettings {
  host: string;
  allowedHosts: readonly string[];
}

export function browserGuard(settings: BrowserGuardSettings): BrowserGuard {
  const hostAllowed = hostCheck(settings.host, settings.allowedHosts);
  const origins = originPolicy(settings);
  return {
    hostAllowed,
    origins,
    refusal({ method, host, origin, fetchSite, plane }) {
      if (host !== undefined && hostAllowed && !hostAllowed(host)) {
        return new EmulatorError(
          'host_not_allowed',
          `The Host '${host.slice(0, 100)}' is not served: only localhost, *.localhost, IP addresses and the allowed hosts are (--allowed-host).`,
        );
      }
      if (origin !== undefined) {
        if (origins.allows(plane, origin, host)) return undefined;
        const flag = plane === 'control' ? '--control-cors-origin' : '--cors-origin';
        const where = plane === 'control' ? 'the control plane (/_emulator/)' : 'the service routes';
        return new EmulatorError(
          'origin_not_allowed',
          `The origin '${origin.slice(0, 100)}' may not call ${where}: allow it with ${flag}.`,
        );
      }
      if (
        (fetchSite === 'cross-site' || fetchSite === 'same-site') &&
        !SAFE_METHODS.has(method) &&
        !origins.anyOrigin(plane)
      ) {
        return new EmulatorError(
          'origin_not_allowed',
          `A ${fetchSite} browser request without Origin may not change state.`,
        );
      }
      return undefined;
    },
  };
}
