import { readNamedFile } from '../files.js';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createServer } from 'node:tls';
import { localCertificate, type KeyPair } from './authority.js';
import { defaultTlsDir } from './dir.js';
import { certificateNames } from './names.js';

// --https-port: the same HTTP server behind TLS. Each connection is decrypted here and handed
// to the emulator's HTTP server as one of its own, so every route, check and limit is the same
// on both ports (fastify sees `https` as the request's protocol). The certificate is the user's
// (--tls-cert, --tls-key) or one the local authority signs (authority.ts).

export interface HttpsPort {
  port: number;
  /** The local authority's certificate (PEM) clients trust; none with the user's own certificate. */
  authority: string | undefined;
  close(): Promise<void>;
}

export interface HttpsSettings {
  host: string;
  httpsPort: number;
  tlsDir?: string | undefined;
  tlsCert?: string | undefined;
  tlsKey?: string | undefined;
  /** The endpoint the tokens carry, when set: its host is named in the certificate. */
  endpoint?: string | undefined;
}

async function ownCertificate(certPath: string, keyPath: string): Promise<KeyPair> {
  const read = (path: string, what: string) =>
    readNamedFile(path).catch((error: NodeJS.ErrnoException) => {
      throw new Error(`Cannot read the TLS ${what} ${path}: ${error.code ?? error.message}`);
    });
  return { cert: await read(certPath, 'certificate'), key: await read(keyPath, 'key') };
}

export interface ServerCertificate {
  pair: KeyPair;
  /** The local authority's certificate (PEM) clients trust; none with the user's own certificate. */
  authority: string | undefined;
}

export type CertificateSettings = Pick<HttpsSettings, 'tlsDir' | 'tlsCert' | 'tlsKey' | 'endpoint'>;

/** The TLS ports' certificate: the user's (--tls-cert, --tls-key) or one the local authority signs. */
export async function serverCertificate(settings: CertificateSettings): Promise<ServerCertificate> {
  if (settings.tlsCert !== undefined && settings.tlsKey !== undefined)
    return { pair: await ownCertificate(settings.tlsCert, settings.tlsKey), authority: undefined };
  const dir = settings.tlsDir ?? defaultTlsDir();
  const local = await localCertificate(dir, certificateNames(settings.endpoint)).catch((error: Error) => {
    throw new Error(`Cannot keep the local certificate authority in ${dir}: ${error.message}`);
  });
  return { pair: local.certificate, authority: local.authority.cert };
}

/** Listens on host:httpsPort and passes each decrypted connection to `server`. */
export async function startHttpsPort(server: Server, settings: HttpsSettings): Promise<HttpsPort> {
  const { pair, authority } = await serverCertificate(settings);
  const sockets = new Set<Socket>();
  let tls;
  try {
    tls = createServer({ cert: pair.cert, key: pair.key, ALPNProtocols: ['http/1.1'] }, (socket) => {
      server.emit('connection', socket);
    });
  } catch (error) {
    throw new Error(`The TLS certificate and key do not make a pair: ${(error as Error).message}`);
  }
  tls.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A client that does not trust the certificate, or speaks plain HTTP here, ends its own connection.
  tls.on('tlsClientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    tls.once('error', reject);
    tls.listen(settings.httpsPort, settings.host, () => {
      tls.off('error', reject);
      resolve();
    });
  });
  return {
    port: (tls.address() as AddressInfo).port,
    authority,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        tls.close(() => resolve());
      }),
  };
}
