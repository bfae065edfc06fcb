import { errors, type Pool } from 'undici';

// Publishers and subscribers as a careful client writes them: a publisher retries a message
// until it is acknowledged (204) or gives up on anything but 429 and a dropped connection; a
// subscriber advances its cursor only on what it received, follows discontinuities, retries
// the same cursor after a 429 or a dropped connection. Both keep what they saw for checking.

export const CACHE = 'default-cache';

export type StreamEvent =
  | { kind: 'item'; page: number; seq: number; text: string }
  | { kind: 'discontinuity'; last: number; next: number; page: number };

export interface Cursor {
  seq: number;
  page: number;
}

/** What a client met besides plain answers. */
export interface Trouble {
  throttled: number;
  dropped: number;
}

function isDropped(error: unknown): boolean {
  return (
    error instanceof errors.SocketError ||
    error instanceof errors.ClientClosedError ||
    (error as NodeJS.ErrnoException)?.code === 'ECONNRESET' ||
    (error as NodeJS.ErrnoException)?.code === 'UND_ERR_SOCKET'
  );
}

export interface Publisher extends Trouble {
  id: number;
  /** Messages this publisher has started so far; names the next one. */
  sent: number;
  /** Acknowledged messages per topic, in the order this publisher sent them. */
  acked: Map<string, string[]>;
}

export function newPublisher(id: number, topics: string[]): Publisher {
  return { id, sent: 0, acked: new Map(topics.map((t) => [t, []])), throttled: 0, dropped: 0 };
}

/** Publishes `count` messages `p<id>:<n>` (n counts every message of this publisher), the kth to topics[k % topics.length], one at a time; `pause` may hold it before a message, or stop it. */
export async function publish(
  pool: Pool,
  key: string,
  publisher: Publisher,
  topics: string[],
  count: number,
  pause?: (k: number) => Promise<void | 'stop'>,
): Promise<void> {
  const { id } = publisher;
  for (let k = 0; k < count; k++) {
    if ((await pause?.(k)) === 'stop') return;
    const topic = topics[k % topics.length]!;
    const text = `p${id}:${publisher.sent++}`;
    for (;;) {
      try {
        const { statusCode, body } = await pool.request({
          path: `/topics/${CACHE}/${topic}`,
          method: 'POST',
          headers: { authorization: key, 'content-type': 'text/plain' },
          body: text,
        });
        const answer = await body.text();
        if (statusCode === 204) break;
        if (statusCode === 429) {
          publisher.throttled += 1;
          continue;
        }
        throw new Error(`publish ${text} answered ${statusCode}: ${answer}`);
      } catch (error) {
        if (!isDropped(error)) throw error;
        publisher.dropped += 1;
      }
    }
    publisher.acked.get(topic)!.push(text);
  }
}

export interface Subscriber extends Trouble {
  name: string;
  topic: string;
  cursor: Cursor;
  events: StreamEvent[];
  polls: number;
  /** Resolves when the subscriber stops (stop() was called and its cursor reached the target). */
  finished: Promise<void>;
  /** Stop once the cursor reaches `target` (page and next number); waits for it to get there. */
  stopAt(target: Cursor): void;
  /** Holds the subscriber between polls until the returned function is called. */
  hold(): () => void;
}

/** Subscribes from number 1 of the current page, polling until stopped. */
export function subscribe(pool: Pool, key: string, name: string, topic: string): Subscriber {
  let target: Cursor | undefined;
  let held: Promise<void> | undefined;
  const subscriber: Subscriber = {
    name,
    topic,
    cursor: { seq: 1, page: 0 },
    events: [],
    polls: 0,
    throttled: 0,
    dropped: 0,
    finished: Promise.resolve(),
    stopAt(at) {
      target = at;
    },
    hold() {
      let release!: () => void;
      held = new Promise((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
  };
  const reached = () =>
    target !== undefined && subscriber.cursor.page === target.page && subscriber.cursor.seq >= target.seq;
  subscriber.finished = (async () => {
    while (!reached()) {
      if (held) await held;
      subscriber.polls += 1;
      const { seq, page } = subscriber.cursor;
      let statusCode: number;
      let text: string;
      try {
        const response = await pool.request({
          path: `/topics/${CACHE}/${topic}?sequence_number=${seq}&sequence_page=${page}`,
          method: 'GET',
          headers: { authorization: key },
        });
        statusCode = response.statusCode;
        text = await response.body.text();
      } catch (error) {
        if (!isDropped(error)) throw error;
        subscriber.dropped += 1;
        continue;
      }
      if (statusCode === 429) {
        subscriber.throttled += 1;
        continue;
      }
      if (statusCode !== 200) throw new Error(`${name}: subscribe answered ${statusCode}: ${text}`);
      const { items } = JSON.parse(text) as {
        items: (
          | { item: { sequence_page: number; topic_sequence_number: number; value: { text: string } } }
          | { discontinuity: { last_topic_sequence: number; new_topic_sequence: number; new_sequence_page: number } }
        )[];
      };
      for (const element of items) {
        if ('item' in element) {
          const { sequence_page, topic_sequence_number, value } = element.item;
          subscriber.events.push({ kind: 'item', page: sequence_page, seq: topic_sequence_number, text: value.text });
          subscriber.cursor = { seq: topic_sequence_number + 1, page: sequence_page };
        } else {
          const { last_topic_sequence, new_topic_sequence, new_sequence_page } = element.discontinuity;
          subscriber.events.push({
            kind: 'discontinuity',
            last: last_topic_sequence,
            next: new_topic_sequence,
            page: new_sequence_page,
          });
          subscriber.cursor = { seq: new_topic_sequence, page: new_sequence_page };
        }
      }
    }
  })();
  return subscriber;
}
