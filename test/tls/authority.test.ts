import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { connect as connectTls, createServer as createTlsServer } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Forge from 'node-forge';
import { afterEach, describe, expect, it } from 'vitest';
import { localCertificate, serialNumber } from '../../emulator/tls/authority.js';
import { certificateNames } from '../../emulator/tls/names.js';

// The local authority's certificates load in every Node the emulator runs on: OpenSSL 3 refuses
// a serial written with a leading zero ("illegal padding"), which forge writes when the serial's
// bytes begin with two zero bytes.

const forge = createRequire(import.meta.url)('node-forge') as typeof Forge;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tlsDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'authority-'));
  dirs.push(dir);
  return dir;
};

describe('serialNumber', () => {
  it('is 16 bytes, positive, with no leading zero, whatever the random bytes', () => {
    for (const random of [Buffer.alloc(16), Buffer.alloc(16, 0xff), Buffer.from([0, 0x7f, ...Buffer.alloc(14, 9)])]) {
      const serial = Buffer.from(serialNumber(random), 'hex');
      expect(serial).toHaveLength(16);
      expect(serial[0]).toBeGreaterThanOrEqual(0x40);
      expect(serial[0]).toBeLessThanOrEqual(0x7f);
      expect(serial.subarray(1)).toEqual(random.subarray(1));
    }
  });
});

describe('localCertificate', () => {
  it('makes an authority again when the kept one cannot be loaded here, and a certificate signed by it', async () => {
    const dir = tlsDir();
    // An authority as forge writes one whose serial begins with two zero bytes.
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }) as string);
    const cert = forge.pki.createCertificate();
    cert.serialNumber = '0000' + '11'.repeat(14);
    cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
    cert.validity.notBefore = new Date();
    cert.validity.notAfter = new Date(Date.now() + 86_400_000);
    cert.setSubject([{ name: 'commonName', value: 'unloadable' }]);
    cert.setIssuer([{ name: 'commonName', value: 'unloadable' }]);
    cert.sign(key, forge.md.sha256.create());
    const unloadable = forge.pki.certificateToPem(cert);
    expect(() => new X509Certificate(unloadable)).toThrow(/illegal padding/);
    writeFileSync(join(dir, 'ca.pem'), unloadable);
    writeFileSync(join(dir, 'ca-key.pem'), forge.pki.privateKeyToPem(key));

    const { authority, certificate } = await localCertificate(dir, certificateNames(undefined));
    const ca = new X509Certificate(authority.cert);
    expect(ca.subject).toContain('topics-emulator local CA');
    expect(readFileSync(join(dir, 'ca.pem'), 'utf8')).toBe(authority.cert);
    // The unloadable one is kept aside, not lost.
    expect(readFileSync(join(dir, 'ca.pem.unloadable'), 'utf8')).toBe(unloadable);
    expect(readFileSync(join(dir, 'ca-key.pem.unloadable'), 'utf8')).toBe(forge.pki.privateKeyToPem(key));
    const leaf = new X509Certificate(certificate.cert);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkPrivateKey(createPrivateKey(certificate.key))).toBe(true);
  });

  it('makes the certificate again when its kept key is not its own, and the authority again when its key is not', async () => {
    const dir = tlsDir();
    const first = await localCertificate(dir, certificateNames(undefined));
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs1',
      format: 'pem',
    }) as string;
    writeFileSync(join(dir, 'localhost-key.pem'), otherKey);
    const leafAgain = await localCertificate(dir, certificateNames(undefined));
    expect(leafAgain.authority.cert).toBe(first.authority.cert);
    expect(leafAgain.certificate.cert).not.toBe(first.certificate.cert);
    expect(
      new X509Certificate(leafAgain.certificate.cert).checkPrivateKey(createPrivateKey(leafAgain.certificate.key)),
    ).toBe(true);

    writeFileSync(join(dir, 'ca-key.pem'), otherKey);
    const authorityAgain = await localCertificate(dir, certificateNames(undefined));
    expect(authorityAgain.authority.cert).not.toBe(first.authority.cert);
    expect(readFileSync(join(dir, 'ca-key.pem.unloadable'), 'utf8')).toBe(otherKey);
    const ca = new X509Certificate(authorityAgain.authority.cert);
    expect(ca.checkPrivateKey(createPrivateKey(authorityAgain.authority.key))).toBe(true);
    expect(new X509Certificate(authorityAgain.certificate.cert).verify(ca.publicKey)).toBe(true);
  });

  it('keeps an authority that loads', async () => {
    const dir = tlsDir();
    const first = await localCertificate(dir, certificateNames(undefined));
    const again = await localCertificate(dir, certificateNames(undefined));
    expect(again.authority.cert).toBe(first.authority.cert);
    expect(again.certificate.cert).toBe(first.certificate.cert);
  });
});

/** A certificate with a fresh key; self-signed unless an issuer and signer are given. */
function certificateWith(options: {
  subject: string;
  issuer?: Forge.pki.CertificateField[];
  signer?: Forge.pki.rsa.PrivateKey;
  extensions: object[];
}): { cert: string; key: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }) as string);
  const cert = forge.pki.createCertificate();
  cert.serialNumber = serialNumber();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  cert.setSubject([{ name: 'commonName', value: options.subject }]);
  cert.setIssuer(options.issuer ?? [{ name: 'commonName', value: options.subject }]);
  cert.setExtensions(options.extensions);
  cert.sign(options.signer ?? key, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: forge.pki.privateKeyToPem(key) };
}

describe('the authority vouches only for the names the emulator serves (name constraints)', () => {
  /** A certificate for `names` signed with the authority's key, as a thief of that key would make one. */
  const forged = (authority: { cert: string; key: string }, dns: string[], ips: string[] = []) =>
    certificateWith({
      subject: dns[0] ?? ips[0]!,
      issuer: forge.pki.certificateFromPem(authority.cert).subject.attributes,
      signer: forge.pki.privateKeyFromPem(authority.key),
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [...dns.map((value) => ({ type: 2, value })), ...ips.map((ip) => ({ type: 7, ip }))],
        },
      ],
    });

  /** Whether a TLS client that trusts only the authority accepts `pair` for `servername`. */
  const accepted = async (authority: string, pair: { cert: string; key: string }, servername: string) => {
    const server = createTlsServer({ cert: pair.cert, key: pair.key }, (socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      return await new Promise<string>((resolve) => {
        const socket = connectTls({ host: '127.0.0.1', port, ca: authority, servername }, () => {
          socket.destroy();
          resolve('accepted');
        });
        socket.on('error', (error: NodeJS.ErrnoException) => resolve(`${error.code}: ${error.message}`));
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  };

  it('a client that trusts it accepts the emulator’s certificate, and refuses one it signed for another site', async () => {
    const { authority, certificate } = await localCertificate(tlsDir(), certificateNames('emulator.test:4545'));
    expect(await accepted(authority.cert, certificate, 'localhost')).toBe('accepted');
    expect(await accepted(authority.cert, certificate, 'api.cache.emulator.test')).toBe('accepted');
    expect(await accepted(authority.cert, forged(authority, ['cache.localhost']), 'cache.localhost')).toBe('accepted');
    const refused = await accepted(authority.cert, forged(authority, ['bank.example']), 'bank.example');
    expect(refused).toMatch(/permitted subtree violation/);
    const ip = await accepted(authority.cert, forged(authority, ['localhost'], ['10.1.2.3']), 'localhost');
    expect(ip).toMatch(/permitted subtree violation/);
  });

  it('makes again an authority that may vouch for more (one made before, or for another endpoint), keeping the old one beside it', async () => {
    const dir = tlsDir();
    // An authority with no constraints, as the emulator made them before.
    const { cert: old, key } = certificateWith({
      subject: 'old',
      extensions: [{ name: 'basicConstraints', cA: true, critical: true }],
    });
    writeFileSync(join(dir, 'ca.pem'), old);
    writeFileSync(join(dir, 'ca-key.pem'), key);

    const made = await localCertificate(dir, certificateNames(undefined));
    expect(made.authority.cert).not.toBe(old);
    expect(readFileSync(join(dir, 'ca.pem.replaced'), 'utf8')).toBe(old);
    // Kept while the names stay within it; made again for an endpoint outside it.
    expect((await localCertificate(dir, certificateNames('127.0.0.1:4545'))).authority.cert).toBe(made.authority.cert);
    const other = await localCertificate(dir, certificateNames('emulator.test'));
    expect(other.authority.cert).not.toBe(made.authority.cert);
    expect(await accepted(other.authority.cert, other.certificate, 'cache.emulator.test')).toBe('accepted');
  });
});
