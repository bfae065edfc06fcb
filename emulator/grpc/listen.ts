import type { AddressInfo, Server } from 'node:net';

/** Listens on host:port (0: any free port); resolves with the port, rejects with the listen error. */
export function listenOn(server: Server, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
