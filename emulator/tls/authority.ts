import { createPrivateKey, generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { readNamedFile } from '../files.js';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type * as Forge from 'node-forge';
import { constraintsExtension, constraintsFor, constraintsOf, covered } from './constraints.js';
import type { CertificateNames } from './names.js';

// The local certificate authority behind --https-port: created once in its directory (ca.pem,
// and ca-key.pem readable by its owner only) and kept, so that a machine or browser told to trust
// it once keeps trusting every certificate it signs. The certificate for the HTTPS port is signed
// by it and kept beside it (localhost.pem, localhost-key.pem) while its names stay the same and it
// has more than 30 days left, so a start after the first makes no key. node-forge builds and signs
// the certificates (Node can read X.509 but not write it); Node makes the keys. Loaded only when
// the HTTPS port is on.

export interface KeyPair {
  /** PEM */
  cert: string;
  /** PEM */
  key: string;
}

const require = createRequire(import.meta.url);
const forge = () => require('node-forge') as typeof Forge;

const DAY_MS = 86_400_000;
/** The authority lasts ten years; a certificate it signs, 825 days (the most Apple's platforms accept). */
const AUTHORITY_DAYS = 3650;
const CERTIFICATE_DAYS = 825;
const RENEW_BEFORE_MS = 30 * DAY_MS;

function newKeys(): { privateKey: Forge.pki.rsa.PrivateKey; publicKey: Forge.pki.rsa.PublicKey } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
  const key = forge().pki.privateKeyFromPem(pem);
  return { privateKey: key, publicKey: forge().pki.setRsaPublicKey(key.n, key.e) };
}

/**
 * A certificate's serial: 16 random bytes read as a positive integer in its one DER spelling
 * (the first byte 0x40 to 0x7f: no sign bit, no leading zero). forge writes the bytes as given,
 * dropping one leading zero at most, and OpenSSL 3 refuses a certificate whose serial keeps one
 * ("illegal padding"), so a serial is never written with one.
 */
export function serialNumber(random: Buffer = randomBytes(16)): string {
  const bytes = Buffer.from(random.subarray(0, 16));
  bytes[0] = 0x40 | (bytes[0]! & 0x3f);
  return bytes.toString('hex');
}

function certificate(days: number): Forge.pki.Certificate {
  const cert = forge().pki.createCertificate();
  cert.serialNumber = serialNumber();
  const now = Date.now();
  cert.validity.notBefore = new Date(now - DAY_MS);
  cert.validity.notAfter = new Date(now + days * DAY_MS);
  return cert;
}

/** An authority that may vouch only for these names (and the loopback networks): see constraints.ts. */
function createAuthority(names: CertificateNames): KeyPair {
  const keys = newKeys();
  const cert = certificate(AUTHORITY_DAYS);
  cert.publicKey = keys.publicKey;
  const subject = [
    { name: 'commonName', value: `topics-emulator local CA (${hostname()})` },
    { name: 'organizationName', value: 'topics-emulator (local development only)' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
    constraintsExtension(constraintsFor(names)),
  ]);
  cert.sign(keys.privateKey, forge().md.sha256.create());
  return { cert: forge().pki.certificateToPem(cert), key: forge().pki.privateKeyToPem(keys.privateKey) };
}

function issue(authority: KeyPair, names: CertificateNames): KeyPair {
  const pki = forge().pki;
  const issuer = pki.certificateFromPem(authority.cert);
  const keys = newKeys();
  const cert = certificate(CERTIFICATE_DAYS);
  cert.publicKey = keys.publicKey;
  cert.setSubject([{ name: 'commonName', value: names.dns[0] ?? 'localhost' }]);
  cert.setIssuer(issuer.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [...names.dns.map((value) => ({ type: 2, value })), ...names.ips.map((ip) => ({ type: 7, ip }))],
    },
  ]);
  cert.sign(pki.privateKeyFromPem(authority.key), forge().md.sha256.create());
  return { cert: pki.certificateToPem(cert), key: pki.privateKeyToPem(keys.privateKey) };
}

async function readPair(certPath: string, keyPath: string): Promise<KeyPair | undefined> {
  try {
    return { cert: await readNamedFile(certPath), key: await readNamedFile(keyPath) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Written whole or not at all: a temporary file renamed into place. */
async function writePair(certPath: string, keyPath: string, pair: KeyPair): Promise<void> {
  const suffix = `.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(keyPath + suffix, pair.key, { mode: 0o600 });
  await writeFile(certPath + suffix, pair.cert, { mode: 0o644 });
  await rename(keyPath + suffix, keyPath);
  await rename(certPath + suffix, certPath);
}

/** An IP address in one spelling (Node writes a certificate's IPv6 addresses in full). */
const canonicalIp = (ip: string) => (ip.includes(':') ? new URL(`http://[${ip}]`).hostname.slice(1, -1) : ip);

/** The names a certificate is for, as `certificateNames` lists them (order aside). */
function namesOf(cert: X509Certificate): string {
  return (cert.subjectAltName ?? '')
    .split(', ')
    .map((entry) =>
      entry.startsWith('IP Address:')
        ? `ip:${canonicalIp(entry.slice('IP Address:'.length))}`
        : entry.replace(/^DNS:/, 'dns:').toLowerCase(),
    )
    .sort()
    .join(',');
}

const wanted = (names: CertificateNames) =>
  [...names.dns.map((n) => `dns:${n.toLowerCase()}`), ...names.ips.map((ip) => `ip:${canonicalIp(ip)}`)]
    .sort()
    .join(',');

/** The pair's certificate as this Node loads it, when the key loads too and is the certificate's; else undefined. */
function loaded(pair: KeyPair): X509Certificate | undefined {
  try {
    const cert = new X509Certificate(pair.cert);
    return cert.checkPrivateKey(createPrivateKey(pair.key)) ? cert : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a kept certificate still serves: it loads, signed by this authority, for these names, with 30 days left. */
function stillServes(pair: KeyPair, authority: KeyPair, names: CertificateNames): boolean {
  const cert = loaded(pair);
  try {
    return (
      cert !== undefined &&
      cert.verify(new X509Certificate(authority.cert).publicKey) &&
      Date.parse(cert.validTo) - Date.now() > RENEW_BEFORE_MS &&
      namesOf(cert) === wanted(names)
    );
  } catch {
    return false;
  }
}

/**
 * The authority in `dir` (created there the first time) and a certificate it signed for `names`
 * (kept there while it still serves). Throws with the path when the directory cannot be used.
 */
export async function localCertificate(
  dir: string,
  names: CertificateNames,
): Promise<{ authority: KeyPair; certificate: KeyPair }> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const caPath = join(dir, 'ca.pem');
  const caKeyPath = join(dir, 'ca-key.pem');
  let authority = await readPair(caPath, caKeyPath);
  // One this Node cannot load (a serial written with a leading zero, a key not its own) can serve
  // nobody: made again, the old one kept beside it (`.unloadable`), not overwritten.
  if (authority !== undefined && loaded(authority) === undefined) {
    await rename(caPath, `${caPath}.unloadable`);
    await rename(caKeyPath, `${caKeyPath}.unloadable`);
    authority = undefined;
  }
  // One that may vouch for other names than these (made before authorities were constrained, or
  // for another endpoint) is made again, the old one kept beside it (`.replaced`).
  if (authority !== undefined) {
    const constraints = constraintsOf(authority.cert);
    if (constraints === undefined || !covered(constraints, names)) {
      await rename(caPath, `${caPath}.replaced`);
      await rename(caKeyPath, `${caKeyPath}.replaced`);
      authority = undefined;
    }
  }
  if (authority === undefined) {
    authority = createAuthority(names);
    await writePair(caPath, caKeyPath, authority);
  }
  const certPath = join(dir, 'localhost.pem');
  const keyPath = join(dir, 'localhost-key.pem');
  let certificate = await readPair(certPath, keyPath);
  if (certificate === undefined || !stillServes(certificate, authority, names)) {
    certificate = issue(authority, names);
    await writePair(certPath, keyPath, certificate);
  }
  return { authority, certificate };
}
