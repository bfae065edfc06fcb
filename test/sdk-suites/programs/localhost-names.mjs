// Test-only: resolves every *.localhost name to the loopback address, as RFC 6761 asks and macOS,
// systemd-resolved and browsers do; glibc without systemd-resolved (this CI's machines) does not.
// Preloaded (--import) by the refresh-token test only: disposable tokens name localhost:<port>,
// and the SDK connects to cache.localhost:<port> and token.localhost:<port>.
import dns from 'node:dns';

const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
  if (typeof hostname === 'string' && hostname.endsWith('.localhost')) hostname = 'localhost';
  return lookup.call(this, hostname, options, callback);
};
const promisesLookup = dns.promises.lookup;
dns.promises.lookup = function (hostname, options) {
  if (typeof hostname === 'string' && hostname.endsWith('.localhost')) hostname = 'localhost';
  return promisesLookup.call(this, hostname, options);
};
