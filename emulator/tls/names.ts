import { isIP } from 'node:net';

// The names the HTTPS port's certificate is for: what clients that build their base URL from a
// portable token (`https://api.cache.<endpoint>`) and local pages ask for. Pure: the endpoint in,
// the names out.

export interface CertificateNames {
  dns: string[];
  ips: string[];
}

/** The host of an endpoint as tokens carry it (`host`, `host:port`, `[v6]:port`). */
export function hostOf(endpoint: string): string {
  if (endpoint.startsWith('[')) return endpoint.slice(1, endpoint.indexOf(']'));
  const colon = endpoint.lastIndexOf(':');
  return colon === -1 || endpoint.indexOf(':') !== colon ? endpoint : endpoint.slice(0, colon);
}

/** The names the provider's SDKs connect to for an endpoint (cache., control., token.), and HTTP clients (api.cache.). */
const serviceNames = (host: string) => [`api.cache.${host}`, `cache.${host}`, `control.${host}`, `token.${host}`];

/**
 * localhost, *.localhost, the service names under localhost, the loopback addresses, and the
 * endpoint's host with its service names. The service names are listed one by one: TLS clients
 * do not match a wildcard one label above a top-level name (*.localhost).
 */
export function certificateNames(endpoint: string | undefined): CertificateNames {
  const dns = ['localhost', '*.localhost', ...serviceNames('localhost')];
  const ips = ['127.0.0.1', '::1'];
  const host = endpoint === undefined ? undefined : hostOf(endpoint).toLowerCase();
  if (host !== undefined && host !== '') {
    if (isIP(host)) {
      if (!ips.includes(host)) ips.push(host);
    } else if (host !== 'localhost' && !host.endsWith('.localhost')) {
      dns.push(host, ...serviceNames(host));
    }
  }
  return { dns, ips };
}
