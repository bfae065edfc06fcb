/** A server the bench can aim at: its base URL (no trailing slash) and how to stop it. */
export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export interface ListenOptions {
  host?: string;
  port?: number;
}

/** Base URL of a listening fastify app, from the address it actually bound. */
export function baseUrlOf(address: { address: string; port: number } | string | null): string {
  if (address === null || typeof address === 'string') throw new Error('server is not listening on TCP');
  return `http://${address.address}:${address.port}`;
}
