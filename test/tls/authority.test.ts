import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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
