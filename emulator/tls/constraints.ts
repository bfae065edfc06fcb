import { isIP } from 'node:net';
import { createRequire } from 'node:module';
import type * as Forge from 'node-forge';
import type { CertificateNames } from './names.js';

// The local authority's name constraints (RFC 5280 §4.2.1.10): it may vouch only for the names
// the emulator serves (localhost and its subdomains, the loopback addresses, the configured
// endpoint's host and its subdomains), so that trusting it cannot make any other site trusted.
// Pure: names in, the extension's DER out, and back.

const require = createRequire(import.meta.url);
const forge = () => require('node-forge') as typeof Forge;

/** The object identifier of the nameConstraints extension. */
export const NAME_CONSTRAINTS_OID = '2.5.29.30';

export interface NameConstraints {
  /** DNS subtrees: each permits the name and every name under it. */
  dns: string[];
  /** IP subtrees as address and mask bytes (4 or 16 each). */
  ips: { address: number[]; mask: number[] }[];
}

const LOOPBACK_V4 = { address: [127, 0, 0, 0], mask: [255, 0, 0, 0] };
const LOOPBACK_V6 = { address: [...new Array<number>(15).fill(0), 1], mask: new Array<number>(16).fill(255) };

/** The bytes of an IP address (IPv6 in any spelling). */
function bytesOf(ip: string): number[] {
  if (isIP(ip) === 4) return ip.split('.').map(Number);
  const [head = '', tail = ''] = ip.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const front = groups(head);
  const back = groups(tail);
  const all = ip.includes('::')
    ? [...front, ...new Array<string>(8 - front.length - back.length).fill('0'), ...back]
    : front;
  return all.flatMap((group) => {
    const n = parseInt(group, 16);
    return [n >> 8, n & 0xff];
  });
}

/** What an authority for these certificate names permits: the names' roots and the loopback networks. */
export function constraintsFor(names: CertificateNames): NameConstraints {
  const dns = new Set<string>();
  for (const name of names.dns) {
    const bare = name.replace(/^\*\./, '').toLowerCase();
    // A service name under a host already permitted adds nothing.
    if (![...dns].some((root) => bare === root || bare.endsWith(`.${root}`))) dns.add(bare);
  }
  const ips = [LOOPBACK_V4, LOOPBACK_V6];
  for (const ip of names.ips) {
    if (covered({ dns: [], ips }, { dns: [], ips: [ip] })) continue;
    const address = bytesOf(ip);
    ips.push({ address, mask: address.map(() => 255) });
  }
  return { dns: [...dns], ips };
}

/** Whether every name is within the constraints. */
export function covered(constraints: NameConstraints, names: CertificateNames): boolean {
  const dnsOk = names.dns.every((name) => {
    const bare = name.replace(/^\*\./, '').toLowerCase();
    return constraints.dns.some((root) => bare === root || bare.endsWith(`.${root}`));
  });
  const ipsOk = names.ips.every((ip) => {
    const bytes = bytesOf(ip);
    return constraints.ips.some(
      ({ address, mask }) =>
        address.length === bytes.length && bytes.every((byte, i) => (byte & mask[i]!) === (address[i]! & mask[i]!)),
    );
  });
  return dnsOk && ipsOk;
}

const bytes = (values: number[]) => String.fromCharCode(...values);

/** The extension as forge writes an unknown one: its id, critical (as RFC 5280 asks), and its DER value. */
export function constraintsExtension(constraints: NameConstraints): { id: string; critical: true; value: string } {
  const asn1 = forge().asn1;
  const subtree = (base: Forge.asn1.Asn1) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [base]);
  const subtrees = [
    ...constraints.dns.map((name) => subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 2, false, name))),
    ...constraints.ips.map(({ address, mask }) =>
      subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 7, false, bytes([...address, ...mask]))),
    ),
  ];
  const value = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, subtrees),
  ]);
  return { id: NAME_CONSTRAINTS_OID, critical: true, value: asn1.toDer(value).getBytes() };
}

/** The permitted subtrees of an authority's certificate (PEM); undefined when it has no constraints. */
export function constraintsOf(pem: string): NameConstraints | undefined {
  const pki = forge().pki;
  const asn1 = forge().asn1;
  const extensions = pki.certificateFromPem(pem).extensions as { id?: string; value?: string }[];
  const extension = extensions.find((candidate) => candidate.id === NAME_CONSTRAINTS_OID);
  if (extension?.value === undefined) return undefined;
  const root = asn1.fromDer(extension.value);
  const permitted = (root.value as Forge.asn1.Asn1[]).find((part) => Number(part.type) === 0);
  const found: NameConstraints = { dns: [], ips: [] };
  for (const tree of (permitted?.value as Forge.asn1.Asn1[] | undefined) ?? []) {
    const base = (tree.value as Forge.asn1.Asn1[])[0];
    if (base === undefined || typeof base.value !== 'string') continue;
    const tag = Number(base.type);
    if (tag === 2) found.dns.push(base.value.toLowerCase());
    if (tag === 7) {
      const raw = [...base.value].map((c) => c.charCodeAt(0));
      const half = raw.length / 2;
      found.ips.push({ address: raw.slice(0, half), mask: raw.slice(half) });
    }
  }
  return found;
}
