import { createServer, connect, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { listenOn } from './listen.js';
import type { Reachability } from './reachability.js';

// The gRPC port, listened on at start for the cost of a socket: @grpc/grpc-js and the generated
// code (about 45 ms to load) are loaded when the first connection arrives, and each connection is
// passed through to the gRPC server they start on an internal loopback port. A run that no SDK
// connects to never loads them. The same with TLS (--grpc-tls-port): each connection is decrypted
// here (ALPN h2, as gRPC clients ask) and passed through in plaintext.

export interface LazyListener {
  port: number;
  close(): Promise<void>;
}

export interface LazyListenerOptions {
  /** While blocked (test-admin), connections are refused, and a block drops open ones. */
  reachability: Reachability;
  /** A connection that has sent nothing for this long is closed (gRPC's own idle GOAWAY needs an HTTP/2 peer). */
  silentMs: number;
  /** Connections are TLS with this certificate. */
  tls?: { cert: string; key: string };
}

/** Listens on host:port; `open` starts the real server once and answers its internal port. */
export async function listenLazily(
  host: string,
  port: number,
  open: () => Promise<number>,
  { reachability, silentMs, tls }: LazyListenerOptions,
): Promise<LazyListener> {
  let opening: Promise<number> | undefined;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const stopWatching = reachability.onBlock(() => {
    for (const socket of [...sockets]) socket.destroy();
  });
  const serve = (client: Socket) => {
    if (reachability.blocked) return void client.destroy();
    track(client);
    client.setTimeout(silentMs, () => client.destroy());
    client.pause();
    (opening ??= open()).then(
      (internal) => {
        if (client.destroyed) return;
        // Without noDelay each hop waits for the peer's delayed ACK (about 40 ms) before a small write.
        client.setNoDelay(true);
        const upstream = connect({ port: internal, host: '127.0.0.1', noDelay: true });
        track(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
        };
        client.once('error', drop).once('close', drop);
        upstream.once('error', drop).once('close', drop);
        client.pipe(upstream).pipe(client);
        // It spoke: from here gRPC's idle timeout (GOAWAY when no call is open) decides.
        client.once('data', () => client.setTimeout(0));
        client.resume();
      },
      () => client.destroy(),
    );
  };
  let server: Server;
  if (tls === undefined) server = createServer(serve);
  else {
    try {
      server = createTlsServer({ cert: tls.cert, key: tls.key, ALPNProtocols: ['h2'] }, serve);
    } catch (error) {
      throw new Error(`The TLS certificate and key do not make a pair: ${(error as Error).message}`);
    }
    // A client that does not trust the certificate, or speaks plaintext here, ends its own connection.
    server.on('tlsClientError', (_error: Error, socket: Socket) => socket.destroy());
  }
  const listening = await listenOn(server, port, host);
  return {
    port: listening,
    close: () =>
      new Promise<void>((resolve) => {
        stopWatching();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
