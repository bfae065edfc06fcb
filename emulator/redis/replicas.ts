import type { Redis } from 'ioredis';
import { EmulatorError } from '../errors.js';
import type { EmulatorEvents } from '../events.js';
import type { RelayedEvents, ReplicaAnswer, ReplicaLink } from '../backend/replica-link.js';
import { channelMessage } from './channel-message.js';
import { RedisEventRelay } from './event-relay.js';
import { HEARTBEAT_EVERY_MS, HEARTBEAT_TTL_MS } from './liveness.js';
import type { ScriptedRedis } from './scripts.js';
import type { Log } from '../logging.js';

// Which replicas serve one emulator on a Redis store, and questions put to all of them.
//
// Membership: each replica takes an ordinal (`INCR`) and registers as `r<ordinal>` in a sorted
// set scored by when its registration expires (Redis's own clock, so replicas' clocks need not
// agree), refreshed every HEARTBEAT_EVERY_MS; a clean close removes it. A replica killed
// without closing stays registered at most HEARTBEAT_TTL_MS after its last heartbeat.
//
// Questions: the asking replica publishes the question on each other replica's channel and
// waits for every answer on its own (both on the store's one subscriber connection). A replica
// that no one listens for (PUBLISH reaches nobody) or that does not answer in ANSWER_TIMEOUT_MS
// fails the question: 503 `replica_unreachable`, never a partial answer.
//
// Events: other replicas' `request` and `waiting` events, for this replica's event-stream readers,
// pass through Redis while some replica has readers (event-relay.ts).
//
// Keys, under the store's prefix:
//   <prefix>replicas         sorted set: replica id -> expiry (Redis time, ms)
//   <prefix>replica-started  hash: replica id -> start time (epoch ms)
//   <prefix>replica-ordinal  the last ordinal handed out
//   <prefix>replica:<id>     the pub/sub channel of one replica's questions and answers
//   <prefix>event-readers    sorted set: replica id -> expiry, the replicas with event-stream readers;
//                            also the pub/sub channel where one says its readers came or went
//   <prefix>relayed-events   the pub/sub channel of the events passed on to them (event-relay.ts)

/** How long a question waits for every registered replica's answer. */
export const ANSWER_TIMEOUT_MS = 2000;

interface Member {
  id: string;
  startedAt: number;
}

type Message =
  | { k: 'q'; qid: string; from: string; q: unknown }
  | { k: 'a'; qid: string; from: string; a: unknown }
  | { k: 'e'; qid: string; from: string; code: string; message: string };

interface Pending {
  waiting: Map<string, Member>;
  answers: ReplicaAnswer[];
  resolve: (answers: ReplicaAnswer[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class RedisReplicas implements ReplicaLink {
  id = '';
  ordinal = 0;
  readonly startedAt = Date.now();
  onQuestion: ((question: unknown) => unknown) | undefined;
  private readonly keys: [string, string, string];
  private readonly pending = new Map<string, Pending>();
  private questions = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Other replicas' events for this replica's event-stream readers. */
  readonly relay: RedisEventRelay;

  constructor(
    private readonly command: ScriptedRedis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    events: EmulatorEvents | undefined,
    private readonly log: Log,
  ) {
    this.keys = [`${prefix}replicas`, `${prefix}replica-started`, `${prefix}replica-ordinal`];
    this.relay = new RedisEventRelay(command, subscriber, prefix, () => this.id, events, log);
    subscriber.on('message', (channel: string, text: string) => {
      if (this.id && channel === this.channelOf(this.id)) this.heard(text);
    });
  }

  /** Takes an ordinal, listens on its channel, then registers and keeps the registration alive. */
  async join(): Promise<void> {
    this.ordinal = Number(await this.command.reserveReplica(...this.keys));
    this.id = `r${this.ordinal}`;
    await this.subscriber.subscribe(this.channelOf(this.id));
    await this.beat();
    this.heartbeat = setInterval(() => {
      if (this.command.status === 'ready')
        this.beat().catch((error: Error) => this.log.debug({ err: error.message }, 'replicas: heartbeat failed'));
    }, HEARTBEAT_EVERY_MS);
    this.heartbeat.unref();
    await this.relay.start();
  }

  /** Stops the heartbeat and leaves the registry (a clean close); questions still open fail. */
  async leave(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.relay.close();
    for (const qid of [...this.pending.keys()])
      this.settle(qid, new EmulatorError('service_unavailable', 'This replica is closing.'));
    if (!this.id || this.command.status !== 'ready') return;
    await this.command
      .multi()
      .zrem(this.keys[0], this.id)
      .hdel(this.keys[1], this.id)
      .exec()
      .catch((error: Error) => this.log.debug({ err: error.message }, 'replicas: leaving failed'));
  }

  async ask(question: object): Promise<ReplicaAnswer[]> {
    let members: Member[];
    try {
      members = await this.members();
    } catch {
      throw new EmulatorError(
        'service_unavailable',
        'The emulator has lost its store (Redis): the replicas cannot be asked; try again shortly.',
        { 'retry-after': '1' },
      );
    }
    const here: ReplicaAnswer = { replica: this.id, answer: this.answer(question) };
    const others = members.filter((m) => m.id !== this.id);
    if (others.length === 0) return [here];
    const qid = `${this.id}:${++this.questions}`;
    return new Promise<ReplicaAnswer[]>((resolve, reject) => {
      const timer = setTimeout(
        () => this.settle(qid, this.unreachable(qid, `did not answer within ${ANSWER_TIMEOUT_MS} ms`)),
        ANSWER_TIMEOUT_MS,
      );
      this.pending.set(qid, {
        waiting: new Map(others.map((m) => [m.id, m])),
        answers: [here],
        resolve,
        reject,
        timer,
      });
      const text = JSON.stringify({ k: 'q', qid, from: this.id, q: question } satisfies Message);
      for (const member of others) {
        this.command
          .call('PUBLISH', this.channelOf(member.id), text)
          .then((receivers) => {
            // Registered, but nobody listens on its channel: gone without leaving.
            if (receivers === 0)
              this.settle(
                qid,
                this.unreachable(qid, 'is registered but no longer listens (gone without closing)', [member]),
              );
          })
          .catch(() => this.settle(qid, this.unreachable(qid, 'could not be asked', [member])));
      }
    });
  }

  hearOthers(listener: (relayed: RelayedEvents) => void): () => void {
    return this.relay.listen(listener);
  }

  private async members(): Promise<Member[]> {
    const flat = (await this.command.replicaMembers(this.keys[0], this.keys[1])) as string[];
    const members: Member[] = [];
    for (let i = 0; i < flat.length; i += 2) members.push({ id: flat[i]!, startedAt: Number(flat[i + 1]) });
    return members;
  }

  private beat(): Promise<unknown> {
    return this.command.replicaHeartbeat(...this.keys, this.id, this.ordinal, this.startedAt, HEARTBEAT_TTL_MS);
  }

  private channelOf(id: string): string {
    return `${this.prefix}replica:${id}`;
  }

  private answer(question: unknown): unknown {
    if (!this.onQuestion) throw new EmulatorError('internal_error', 'This replica cannot answer questions yet.');
    return this.onQuestion(question);
  }

  private heard(text: string): void {
    const message = channelMessage<Message>(text);
    if (message === undefined) return;
    if (message.k === 'q') return this.reply(message.qid, message.from, message.q);
    const pending = this.pending.get(message.qid);
    if (!pending || !pending.waiting.delete(message.from)) return;
    if (message.k === 'e') {
      const code = message.code === 'service_unavailable' ? 'service_unavailable' : 'internal_error';
      return this.settle(message.qid, new EmulatorError(code, `Replica ${message.from}: ${message.message}`));
    }
    pending.answers.push({ replica: message.from, answer: message.a });
    if (pending.waiting.size === 0) this.settle(message.qid);
  }

  private reply(qid: string, to: string, question: unknown): void {
    let message: Message;
    try {
      message = { k: 'a', qid, from: this.id, a: this.answer(question) };
    } catch (error) {
      const code = error instanceof EmulatorError ? error.code : 'internal_error';
      message = { k: 'e', qid, from: this.id, code, message: (error as Error).message };
    }
    this.command
      .call('PUBLISH', this.channelOf(to), JSON.stringify(message))
      .catch((error: Error) => this.log.debug({ err: error.message }, 'replicas: answering failed'));
  }

  /** Ends a question: with every answer, or with an error (then nothing is answered). */
  private settle(qid: string, error?: Error): void {
    const pending = this.pending.get(qid);
    if (!pending) return;
    this.pending.delete(qid);
    clearTimeout(pending.timer);
    if (error) pending.reject(error);
    else pending.resolve(pending.answers);
  }

  private unreachable(qid: string, why: string, members?: Member[]): EmulatorError {
    const missing = members ?? [...(this.pending.get(qid)?.waiting.values() ?? [])];
    const named = missing.map((m) => `${m.id} (started ${new Date(m.startedAt).toISOString()})`).join(', ');
    return new EmulatorError(
      'replica_unreachable',
      `Replica ${named} ${why}: this read covers every replica, so it ` +
        `fails rather than answer in part. A replica gone without closing leaves the registry ` +
        `${HEARTBEAT_TTL_MS / 1000} s after its last heartbeat.`,
      { 'retry-after': String(Math.ceil(HEARTBEAT_TTL_MS / 1000)) },
    );
  }
}
