import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import { SettingsError } from '../settings.js';
import type { EmulatorEvents, EventValue } from '../events.js';
import { messageValueOf, type TopicContent } from '../topics/content.js';
import type { MessageValue } from '../topics/message.js';
import {
  InMemoryTopicStore,
  NOBODY_LISTENS,
  type StoreHealth,
  type TopicStore,
  type TopicStoreListener,
} from '../topics/store.js';
import type { DeliveredMessage, Topic, TopicSettings, TopicSnapshot } from '../topics/topic.js';
import type { Cursor, TopicPosition } from '../topics/read-plan.js';
import type { ReadAnswer } from '../topics/subscriber.js';
import { redactedUrl } from '../logging.js';
import { RedisCacheItems } from './cache-items.js';
import { channelMessage } from './channel-message.js';
import { keyLayout, topicId, type KeyLayout } from './keys.js';
import { RedisReplicas } from './replicas.js';
import { defineScripts, type ScriptedRedis, type ScriptName } from './scripts.js';
import { RedisSharedControl, type ControlAnnouncement } from './shared-control.js';
import { RedisLimitCounts } from './limit-counts.js';
import { unavailable } from './unavailable.js';

/** A shared store's caches are the ones every replica is given at start. */
import type { Log } from '../logging.js';

// Topics shared through Redis by every replica with the same store and prefix. Redis numbers and
// retains (Lua scripts, atomic); each replica holds a mirror (the in-memory store, which this
// store builds on) that serves reads at once and tells of every change. Every change is announced on one
// channel, in the order Redis made it; each replica applies the announcements to its mirror, so
// its subscribers wake as they would in memory, with the numbers and pages Redis gave.

type Announcement =
  | { k: 'n' | 'c'; id: [string, string]; page: number }
  | { k: 'p'; id: [string, string]; page: number; seq: number; v: SharedValue }
  | { k: 'r'; from: string; last: number }
  | { k: 'l'; from: string }
  | { k: 'm' | 'd'; cache: string; from: string }
  | ControlAnnouncement;

interface Publishing {
  page: number;
  seq: number;
  done: () => void;
}

const TOPIC_KEYS = (keys: KeyLayout, id: string) => [
  keys.hash(id),
  keys.stream(id),
  keys.topics,
  keys.lastPage,
  keys.pageFloor,
];

/** A message as Redis keeps and announces it: its value, and `p`, the publishing token's id, when it has one. */
type SharedValue = EventValue & { p?: string };

function valueJson(value: MessageValue, publisher: string): string {
  const p = publisher === '' ? {} : { p: publisher };
  if ('text' in value) return JSON.stringify({ text: value.text, ...p });
  const b = value.binary;
  return JSON.stringify({ binary: Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64'), ...p });
}

const publisherOf = (v: SharedValue): string => (typeof v.p === 'string' ? v.p : '');

/** How long any Redis command may take before it fails (and the store counts as stalled). */
export const REDIS_DEADLINE_MS = 3000;
/** How often a stalled store asks Redis whether it answers again. */
const STALL_PROBE_MS = 1000;

const isDeadline = (error: Error) => /command timed out/i.test(error.message);

export class RedisTopicStore implements TopicStore<Promise<number>> {
  private readonly mirror: InMemoryTopicStore;
  private readonly keys: KeyLayout;
  private readonly command: ScriptedRedis;
  private readonly subscriber: Redis;
  private readonly replica = randomUUID();
  /** Mirror in step with Redis (subscribed and loaded). */
  private synced = false;
  /** Set while Redis does not answer (a command missed its deadline): the probe that ends it. */
  private stalled: NodeJS.Timeout | undefined;
  /** Announcements held while the mirror loads. */
  private held: Announcement[] | undefined;
  private syncing: Promise<void> | undefined;
  private closed = false;
  /** The generation of Redis's state this replica loaded last (undefined before the first load). */
  private generation: string | undefined;
  private roundTrips: ((call: string, latencyMs: number) => void) | undefined;
  /** Publishes of this replica numbered in Redis, answered once the mirror holds them. */
  private readonly publishing = new Map<string, Publishing[]>();
  /** The control plane's changes and the fault rules' ledger, on the same connections. */
  readonly sharedControl: RedisSharedControl;
  private counts: RedisLimitCounts | undefined;
  /** The replicas on this store and prefix, for reads that cover all of them (replicas.ts). */
  readonly replicas: RedisReplicas;
  /** The cache's items, on the same connections (cache-items.ts). */
  readonly items: RedisCacheItems;

  private constructor(
    private readonly configured: readonly string[],
    private readonly settings: TopicSettings,
    private readonly clock: Clock,
    events: EmulatorEvents | undefined,
    url: string,
    prefix: string,
    private readonly log: Log,
  ) {
    this.mirror = new InMemoryTopicStore(configured, settings, clock, events);
    this.keys = keyLayout(prefix);
    const options = {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: (times: number) => Math.min(50 * times, 1000),
      // A Redis that stops answering (paused, overloaded, a network that drops packets) does not
      // close the connection: every command has a deadline, past which it fails (a 503).
      commandTimeout: REDIS_DEADLINE_MS,
    };
    this.command = defineScripts(new Redis(url, options));
    this.subscriber = new Redis(url, options);
    this.sharedControl = new RedisSharedControl(this.command, this.keys, this.replica, this.run.bind(this), log);
    for (const connection of [this.command, this.subscriber]) {
      connection.on('error', (error: Error) => this.log.debug({ err: error.message }, 'redis store: connection error'));
      connection.on('close', () => this.lost());
    }
    this.items = new RedisCacheItems((name, args) => this.run(name, args), this.command, this.keys, clock, log);
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.keys.channel) this.announced(text);
      else if (channel === this.keys.itemsChannel) this.items.heard(text);
    });
    this.replicas = new RedisReplicas(this.command, this.subscriber, prefix, events, log);
    // ioredis subscribes again after a reconnect; the mirror is loaded again then.
    this.subscriber.on('ready', () => void this.resync());
    this.command.on('ready', () => void this.resync());
  }

  /** Connects, subscribes, loads every topic; rejects when Redis cannot be reached. */
  static async open(
    caches: readonly string[],
    settings: TopicSettings,
    clock: Clock,
    events: EmulatorEvents | undefined,
    url: string,
    prefix: string,
    log: Log,
  ): Promise<RedisTopicStore> {
    const store = new RedisTopicStore(caches, settings, clock, events, url, prefix, log);
    // ioredis rejects a failed connect with "Connection is closed."; the cause (a name that does
    // not resolve, a port nobody listens on) came as an 'error' event before it.
    let cause: Error | undefined;
    const heard = (error: Error) => (cause ??= error);
    store.command.on('error', heard);
    store.subscriber.on('error', heard);
    try {
      await Promise.all([store.command.connect(), store.subscriber.connect()]);
      await store.resync();
      await store.replicas.join();
    } catch (error) {
      await store.release();
      const why =
        cause && cause.message !== (error as Error).message
          ? `${cause.message} (${(error as Error).message})`
          : (error as Error).message;
      // A start-up error about a setting: the CLI prints it without a trace and exits 2.
      throw new SettingsError(`Cannot reach the store at ${redactedUrl(url)} (--store): ${why}`);
    } finally {
      store.command.off('error', heard);
      store.subscriber.off('error', heard);
    }
    return store;
  }

  private listener: TopicStoreListener = NOBODY_LISTENS;
  /** The last change of the caches sent to Redis, settled. */
  private cachesChanged: Promise<void> = Promise.resolve();

  /** The account limits, counted here for every replica (one window per cache for the whole emulator). */
  limitCounts(): RedisLimitCounts {
    return (this.counts ??= new RedisLimitCounts(
      this.command,
      this.keys.prefix,
      this.replica,
      this.mirror.cacheNames(),
      this.clock,
      this.log,
      () => this.roundTrips,
    ));
  }

  health(): StoreHealth {
    return { kind: 'redis', up: this.synced && this.stalled === undefined };
  }

  hasCache(cache: string): boolean {
    return this.mirror.hasCache(cache);
  }

  cacheNames(): string[] {
    return this.mirror.cacheNames();
  }

  /** Made here at once, then in Redis, which tells every other replica. */
  createCache(cache: string): boolean {
    const made = this.mirror.createCache(cache);
    void this.changeCaches('make', [cache]);
    return made;
  }

  /** Deleted here at once with its topics, then in Redis (its topics too), which tells every other replica. */
  deleteCache(cache: string): boolean {
    const ids = [...this.mirror.topics()].filter((t) => t.cache === cache).map((t) => topicId(cache, t.name));
    const deleted = this.mirror.deleteCache(cache);
    void this.changeCaches(
      'drop',
      [cache, ...ids],
      ids.flatMap((id) => [this.keys.hash(id), this.keys.stream(id)]),
    );
    return deleted;
  }

  async confirmCache(cache: string): Promise<boolean> {
    if (this.mirror.hasCache(cache)) return true;
    if (this.stalled || this.command.status !== 'ready') return false;
    const known = (await this.command.sismember(this.keys.caches, cache)) === 1;
    if (known) this.mirror.createCache(cache);
    return known;
  }

  settled(): Promise<void> {
    return this.cachesChanged;
  }

  /** Changes the caches in Redis (change-caches.lua): every cache, as Redis holds them after. */
  private changeCaches(what: 'seed' | 'reset' | 'make' | 'drop', args: string[], topicKeys: string[] = []) {
    const changed = this.run('changeCaches', [
      2 + topicKeys.length,
      this.keys.caches,
      this.keys.topics,
      ...topicKeys,
      what,
      this.keys.channel,
      this.replica,
      ...args,
    ]) as Promise<string[]>;
    this.cachesChanged = changed.then(
      () => undefined,
      (error: Error) => this.log.warn({ err: error.message, what }, 'redis store: changing the caches failed'),
    );
    return changed;
  }

  listen(listener: TopicStoreListener): void {
    this.listener = listener;
    this.mirror.listen(listener);
  }

  use(cache: string, name: string): TopicPosition {
    return this.topic(cache, name).position;
  }

  position(cache: string, name: string): TopicPosition | undefined {
    return this.mirror.position(cache, name);
  }

  read(cache: string, name: string, cursor: Cursor, maxItems?: number): ReadAnswer | undefined {
    return this.mirror.read(cache, name, cursor, maxItems);
  }

  delivered(cache: string, name: string, read: ReadAnswer): DeliveredMessage[] {
    return this.mirror.delivered(cache, name, read);
  }

  content(cache: string, name: string): TopicContent | undefined {
    return this.mirror.content(cache, name);
  }

  /** The topic; one new here is created in Redis too (a replica that made it first gives the page). */
  private topic(cache: string, name: string): Topic {
    if (!this.synced || this.stalled) throw unavailable();
    const known = this.mirror.find(cache, name);
    if (known) return known;
    const topic = this.mirror.place(cache, name, this.mirror.nextPage());
    this.create(topic);
    return topic;
  }

  // Creates in Redis a topic the mirror holds, proposing its page (a replica that made it first gives the page).
  private create(topic: Topic): void {
    const { cache, name, page } = topic;
    const id = topicId(cache, name);
    this.run('create', ...TOPIC_KEYS(this.keys, id), id, page, this.keys.channel)
      .then((given) => this.applyPage(cache, name, Number(given), true))
      .catch((error: Error) => this.log.warn({ cache, topic: name, err: error.message }, 'redis store: create failed'));
  }

  publish(cache: string, name: string, value: MessageValue, publisher = ''): Promise<number> {
    if (!this.synced || this.stalled) return Promise.reject(unavailable());
    const id = topicId(cache, name);
    const args = [id, this.mirror.peekPage(), this.keys.channel, this.settings.retention, valueJson(value, publisher)];
    return this.run('publish', ...TOPIC_KEYS(this.keys, id), ...args).then(
      (answer) => {
        const [page, seq] = (answer as [number, number]).map(Number) as [number, number];
        return new Promise<number>((resolve) => {
          const done = () => resolve(seq);
          if (this.holds(cache, name, page, seq)) return done();
          const list = this.publishing.get(id) ?? [];
          list.push({ page, seq, done });
          this.publishing.set(id, list);
        });
      },
      () => Promise.reject(unavailable()),
    );
  }

  /** The page changes here at once; Redis confirms it (or raises it) and announces it to every replica. */
  changePage(cache: string, name: string): number {
    const topic = this.topic(cache, name);
    topic.changePage(Math.max(this.mirror.nextPage(), topic.page + 1));
    const id = topicId(cache, name);
    this.run('changePage', ...TOPIC_KEYS(this.keys, id), id, topic.page, this.keys.channel)
      .then((page) => this.applyPage(cache, name, Number(page), false))
      .catch((error: Error) =>
        this.log.warn({ cache, topic: name, err: error.message }, 'redis store: page change failed'),
      );
    return topic.page;
  }

  snapshot(): TopicSnapshot[] {
    return this.mirror.snapshot();
  }

  /** Forgets every topic, here and in Redis; the other replicas answer their waiting subscribers and forget too. */
  clear(): void {
    const known = this.topicIds();
    this.mirror.clear();
    this.forgetting('reset', known, [this.keys.channel, this.replica]).catch((error: Error) =>
      this.log.warn({ err: error.message }, 'redis store: reset failed'),
    );
    void this.changeCaches('reset', [...this.configured]);
  }

  /** The ids of the topics this replica holds. */
  private topicIds(): string[] {
    return [...this.mirror.topics()].map((t) => topicId(t.cache, t.name));
  }

  /**
   * Runs reset.lua or restore.lua with every topic's keys declared: those this replica knows,
   * sent at once (so it follows what this replica sent before it); a topic another replica made
   * meanwhile makes the script change nothing and name it, and it runs again with it.
   */
  private async forgetting(name: 'reset' | 'restore', known: readonly string[], args: (string | number)[]) {
    let ids = [...new Set(known)];
    for (let attempt = 1; ; attempt++) {
      const keys = ids.flatMap((id) => [this.keys.hash(id), this.keys.stream(id)]);
      const [done, missing] = (await this.run(name, [
        3 + keys.length,
        this.keys.topics,
        this.keys.lastPage,
        this.keys.pageFloor,
        ...keys,
        ...args,
        ...ids,
      ])) as [number, string[] | number];
      if (Number(done) === 1 || attempt === 5) return;
      ids = [...new Set([...ids, ...(missing as string[])])];
    }
  }

  contents(): TopicContent[] {
    return this.mirror.contents();
  }

  lastPage(): number {
    return this.mirror.lastPage();
  }

  restore(topics: readonly TopicContent[], lastPage: number): void {
    const known = this.topicIds();
    this.mirror.restore(topics, lastPage);
    const contents = JSON.stringify({
      lastPage,
      topics: topics.map((t) => ({
        id: topicId(t.cache, t.topic),
        page: t.page,
        next: t.nextSequenceNumber,
        messages: t.messages.map((m) => ({ seq: m.sequenceNumber, v: JSON.stringify(m.value) })),
      })),
    });
    const ids = [...known, ...topics.map((t) => topicId(t.cache, t.topic))];
    this.forgetting('restore', ids, [this.keys.channel, this.replica, contents, this.settings.retention]).catch(
      (error: Error) => this.log.warn({ err: error.message }, 'redis store: restore failed'),
    );
  }

  observeRoundTrips(observer: ((call: string, latencyMs: number) => void) | undefined): void {
    this.roundTrips = observer;
  }

  async release(): Promise<void> {
    this.closed = true;
    this.synced = false;
    clearInterval(this.stalled);
    this.stalled = undefined;
    this.mirror.clear();
    await this.items.close();
    await this.counts?.close();
    await this.replicas.leave();
    this.command.disconnect();
    this.subscriber.disconnect();
  }

  /** Runs one of the scripts (scripts.ts): its keys, then its arguments. */
  private run(
    name: ScriptName | `${ScriptName}Buffer`,
    ...args: (string | number | Buffer | (string | number | Buffer)[])[]
  ): Promise<unknown> {
    if (this.stalled) return Promise.reject(unavailable());
    const answer = this.command[name](...(args as (string | number | Buffer)[])).catch((error: Error) => {
      if (isDeadline(error)) this.stall();
      throw error;
    });
    const observer = this.roundTrips;
    if (!observer) return answer;
    const started = performance.now();
    // Answered calls only: one refused at once while Redis is lost is no round trip.
    return answer.then((value) => {
      observer(name, performance.now() - started);
      return value;
    });
  }

  /**
   * A command missed its deadline: Redis is there but does not answer. Until a PING is answered
   * again, health answers 503 and every script is refused at once (503 with Retry-After) instead
   * of waiting out its own deadline.
   */
  private stall(): void {
    if (this.stalled || this.closed) return;
    this.log.warn(
      `redis store: no answer within ${REDIS_DEADLINE_MS} ms; service routes answer 503 until it answers again`,
    );
    this.stalled = setInterval(() => {
      this.command.ping().then(
        () => {
          if (!this.stalled) return;
          clearInterval(this.stalled);
          this.stalled = undefined;
          this.log.info('redis store: answering again');
        },
        () => undefined,
      );
    }, STALL_PROBE_MS);
    this.stalled.unref();
  }

  // A connection closed: service routes answer 503 until both are back and the mirror is loaded again.
  private lost(): void {
    if (this.synced && !this.closed)
      this.log.warn('redis store: connection lost; service routes answer 503 until it is back');
    this.synced = false;
    this.held = undefined;
    this.items.lost();
    for (const [id, list] of this.publishing) {
      this.publishing.delete(id);
      for (const p of list) p.done(); // numbered in Redis: the publisher's 204 is owed
    }
  }

  /** Subscribes, then loads every topic, then applies what was announced meanwhile. */
  private resync(): Promise<void> {
    if (this.closed || this.command.status !== 'ready' || this.subscriber.status !== 'ready') return Promise.resolve();
    return (this.syncing ??= (async () => {
      try {
        this.synced = false;
        this.held = [];
        await this.subscriber.subscribe(this.keys.channel, this.keys.itemsChannel);
        await this.load();
        await this.items.load();
        const held = this.held;
        this.held = undefined;
        this.synced = true;
        for (const announcement of held ?? []) this.apply(announcement);
        this.sharedControl.resume();
        this.log.info('redis store: in step with Redis');
      } catch (error) {
        this.held = undefined;
        this.log.warn({ err: (error as Error).message }, 'redis store: loading failed');
      } finally {
        this.syncing = undefined;
      }
    })());
  }

  private async load(): Promise<void> {
    const { generation, lastPage, pageFloor } = this.keys;
    const seen = this.generation ?? '';
    const resume = [generation, lastPage, pageFloor, randomUUID(), seen, this.lastPage()];
    const [given, passed] = (await this.run('resume', ...resume)) as [string, string];
    const lost = this.generation !== undefined && given !== this.generation;
    this.generation = given;
    this.mirror.passedPage(Number(passed));
    // The caches as Redis holds them (the configured ones, unless a replica made or deleted one).
    const caches = new Set(await this.changeCaches('seed', [...this.configured]));
    for (const cache of caches) this.mirror.createCache(cache);
    for (const cache of this.mirror.cacheNames()) if (!caches.has(cache)) this.mirror.deleteCache(cache);
    const ids = await this.command.smembers(this.keys.topics);
    const pipeline = this.command.pipeline();
    for (const id of ids) {
      pipeline.hmget(this.keys.hash(id), 'page', 'next');
      pipeline.xrange(this.keys.stream(id), '-', '+');
    }
    const answers = (await pipeline.exec()) ?? [];
    ids.forEach((id, i) => {
      const [, fields] = answers[2 * i]!;
      const [, entries] = answers[2 * i + 1]!;
      const [page, next] = (fields as [string | null, string | null]).map(Number) as [number, number];
      if (!page) return;
      const [cache, name] = JSON.parse(id) as [string, string];
      if (!this.mirror.hasCache(cache)) return;
      const messages = (entries as [string, string[]][]).map(([entryId, [, v]]) => {
        const shared = JSON.parse(v!) as SharedValue;
        return {
          seq: Number(entryId.split('-')[0]),
          value: messageValueOf(shared),
          publisher: publisherOf(shared),
        };
      });
      this.loadTopic(cache, name, page, next, messages);
    });
    if (lost) this.renewLost(new Set(ids));
    for (const id of this.publishing.keys()) this.settlePublishing(id);
  }

  // Redis lost its state (restarted without persistence, flushed): each topic the mirror still
  // holds that Redis no longer has changes page here (a discontinuity for its subscribers, never
  // the new numbers on the old page) and is created in Redis on that page or the first replica's.
  private renewLost(known: ReadonlySet<string>): void {
    const lost = [...this.mirror.topics()].filter((topic) => !known.has(topicId(topic.cache, topic.name)));
    if (lost.length) this.log.warn({ topics: lost.length }, 'redis store: Redis lost its state; topics on new pages');
    for (const topic of lost) {
      topic.changePage(this.mirror.nextPage());
      this.create(topic);
    }
  }

  // One topic as Redis holds it, applied to the mirror without losing its waiting subscribers.
  private loadTopic(
    cache: string,
    name: string,
    page: number,
    next: number,
    messages: { seq: number; value: MessageValue; publisher: string }[],
  ): void {
    let topic = this.mirror.find(cache, name);
    if (!topic) {
      topic = this.mirror.place(cache, name, page);
      return topic.restore(
        next,
        messages.map((m) => m.value),
        messages.map((m) => m.publisher),
      );
    }
    if (page < topic.page) {
      if (topic.position.next === 1) topic.adoptPage(page);
      else return;
    }
    if (page > topic.page) topic.changePage(page);
    const missing = messages.filter((m) => m.seq >= topic.position.next);
    if (missing.length && missing[0]!.seq === topic.position.next)
      missing.forEach((m) => topic.publish(m.value, m.publisher));
    else if (next > topic.position.next)
      topic.restore(
        next,
        messages.map((m) => m.value),
        messages.map((m) => m.publisher),
      );
  }

  private announced(text: string): void {
    const announcement = channelMessage<Announcement>(text);
    if (announcement === undefined) return;
    if (this.held) this.held.push(announcement);
    else if (this.synced) this.apply(announcement);
  }

  // An announcement is a replica's own JSON; one of another shape (another program on the prefix)
  // is ignored with a warning rather than thrown where nothing catches it.
  private apply(a: Announcement): void {
    try {
      this.applyAnnounced(a);
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'redis store: an announcement it could not apply was ignored');
    }
  }

  private applyAnnounced(a: Announcement): void {
    switch (a.k) {
      case 'n':
        return this.applyPage(a.id[0], a.id[1], a.page, true);
      case 'c':
        return this.applyPage(a.id[0], a.id[1], a.page, false);
      case 'p':
        return this.applyPublish(a.id[0], a.id[1], a.page, a.seq, a.v);
      case 'r':
        this.mirror.passedPage(a.last);
        if (a.from === this.replica) return;
        this.listener.clearedElsewhere();
        return this.mirror.clear();
      case 'm':
        if (this.mirror.createCache(a.cache) && a.from !== this.replica)
          this.listener.cacheChangedElsewhere('createCache', a.cache);
        return;
      case 'd':
        if (a.from === this.replica || !this.mirror.hasCache(a.cache)) return;
        this.listener.cacheChangedElsewhere('deleteCache', a.cache);
        this.mirror.deleteCache(a.cache);
        return;
      case 'o':
      case 'f':
        return this.sharedControl.announced(a);
      case 'l':
        if (a.from !== this.replica) {
          this.listener.clearedElsewhere();
          this.mirror.clear();
          this.synced = false;
          setImmediate(() => void this.resync());
        }
    }
  }

  // The page Redis gave a topic: created (the first creator's page is adopted while nothing is
  // numbered on it), or changed (greater).
  private applyPage(cache: string, name: string, page: number, created: boolean): void {
    if (!this.mirror.hasCache(cache)) return;
    this.mirror.passedPage(page);
    const topic = this.mirror.find(cache, name);
    if (!topic) this.mirror.place(cache, name, page);
    else if (page > topic.page && !(created && topic.position.next === 1)) topic.changePage(page);
    else if (page !== topic.page && created && topic.position.next === 1) topic.adoptPage(page);
    this.settlePublishing(topicId(cache, name));
  }

  private applyPublish(cache: string, name: string, page: number, seq: number, v: SharedValue): void {
    if (!this.mirror.hasCache(cache)) return;
    this.mirror.passedPage(page);
    let topic = this.mirror.find(cache, name);
    if (!topic) topic = this.mirror.place(cache, name, page);
    if (page < topic.page && topic.position.next === 1) topic.adoptPage(page);
    if (page > topic.page) topic.changePage(page);
    if (page === topic.page) {
      const next = topic.position.next;
      if (seq === next) topic.publish(messageValueOf(v), publisherOf(v));
      else if (seq > next) {
        // Announcements were missed: load again once the current load (if any) is over.
        this.synced = false;
        setImmediate(() => void this.resync());
        return;
      }
    }
    this.settlePublishing(topicId(cache, name));
  }

  private holds(cache: string, name: string, page: number, seq: number): boolean {
    const topic = this.mirror.find(cache, name);
    return topic !== undefined && (topic.page > page || (topic.page === page && topic.position.next > seq));
  }

  private settlePublishing(id: string): void {
    const list = this.publishing.get(id);
    if (!list) return;
    const [cache, name] = JSON.parse(id) as [string, string];
    const left = list.filter((p) => !this.holds(cache, name, p.page, p.seq) || (p.done(), false));
    if (left.length) this.publishing.set(id, left);
    else this.publishing.delete(id);
  }
}
