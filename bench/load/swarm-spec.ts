/** What the harness asks the subscriber swarm to hold open. */
export interface ParkRequest {
  /** Base URL of the server, http://127.0.0.1:PORT. */
  url: string;
  cacheName: string;
  /** Subscriber i waits on topics[i % topics.length]. */
  topics: string[];
  count: number;
  headers: Record<string, string>;
  /** After a delivery, poll again from the next sequence number (false: one request each). */
  follow: boolean;
  /**
   * With follow: a subscriber polls again only once this many deliveries of the same message have
   * been read, so that a fan-out is timed without the next round of polls competing with it.
   */
  repollAfter?: number;
  /** Connections opened at a time. */
  connectBatch?: number;
}

/** Deliveries of one message text across the swarm, stamped with clock.ts's nowMs(). */
export interface Delivery {
  count: number;
  firstAt: number;
  lastAt: number;
}

export interface SwarmStats {
  subscribers: number;
  delivered: number;
  /** Answers with no items (a long-poll timeout). */
  empty: number;
  errors: number;
  statuses: Record<number, number>;
  firstErrors: string[];
}
