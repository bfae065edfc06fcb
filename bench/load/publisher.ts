import { Pool } from 'undici';
import { nowMs } from '../clock.js';

/** The credentials every bench request carries; the baselines ignore them. */
export interface Credentials {
  cacheName: string;
  apiKey: string;
}

export const devCredentials: Credentials = { cacheName: 'default-cache', apiKey: 'topics-emulator-dev-key' };

export function publishHeaders(credentials: Credentials): Record<string, string> {
  return { authorization: credentials.apiKey, 'content-type': 'text/plain' };
}

export function topicPath(credentials: Credentials, topicName: string): string {
  return `/topics/${encodeURIComponent(credentials.cacheName)}/${encodeURIComponent(topicName)}`;
}

export interface Ack {
  status: number;
  /** When the request was handed to the pool and when its answer was read, on nowMs(). */
  sentAt: number;
  ackAt: number;
}

/** A keep-alive publisher: one POST per message, its acknowledgement timed. */
export class Publisher {
  private readonly pool: Pool;

  constructor(
    url: string,
    private readonly credentials: Credentials,
    connections = 1,
  ) {
    this.pool = new Pool(url, { connections, pipelining: 1 });
  }

  async publish(topicName: string, text: string): Promise<Ack> {
    const sentAt = nowMs();
    const response = await this.pool.request({
      path: topicPath(this.credentials, topicName),
      method: 'POST',
      headers: publishHeaders(this.credentials),
      body: text,
    });
    await response.body.dump();
    return { status: response.statusCode, sentAt, ackAt: nowMs() };
  }

  /** Publish and insist on 204: a figure measured over failed publishes would be meaningless. */
  async publishOk(topicName: string, text: string): Promise<Ack> {
    const ack = await this.publish(topicName, text);
    if (ack.status !== 204) throw new Error(`publish to ${topicName} answered ${ack.status}`);
    return ack;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
