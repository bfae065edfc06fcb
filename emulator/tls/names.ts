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

/** localhost, *.localhost, api.cache.localhost, the loopback addresses, and api.cache.<host> of the endpoint. */
export function certificateNames(endpoint: string | undefined): CertificateNames {
  const dns = ['localhost', '*.localhost', 'api.cache.localhost'];
  const ips = ['127.0.0.1', '::1'];
  const host = endpoint === undefined ? undefined : hostOf(endpoint).toLowerCase();
  if (host !== undefined && host !== '') {
    if (isIP(host)) {
      if (!ips.includes(host)) ips.push(host);
    } else if (host !== 'localhost' && !host.endsWith('.localhost')) {
      dns.push(host, `api.cache.${host}`);
    }
  }
  return { dns, ips };
}
