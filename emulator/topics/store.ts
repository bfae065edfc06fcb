import type { Clock } from '../clock.js';
import type { EmulatorEvents } from '../events.js';
import { PageSource } from './page-source.js';
import { TopicNews } from './topic-news.js';
import { Topic, type DeliveredMessage, type TopicSettings, type TopicSnapshot } from './topic.js';
import { messageValueOf, type TopicContent } from './content.js';
import type { MessageValue } from './message.js';
import type { Cursor, TopicPosition } from './read-plan.js';
import type { ReadAnswer } from './subscriber.js';

/**
 * The emulator's topics: configured caches and the topics created in them on use, as plain data:
 * names in, plain data out; no live objects. What a shared store shares besides is the
 * backend's (backend/backend.ts); who waits on a topic is the core's (service/parking.ts), told
 * of each change through `listen`. Reads are answered at once by either store (a shared store
 * holds a copy of every topic in this process). `Numbered`: what a publish answers, its number
 * at once (in memory) or a promise of it (a shared store numbers it).
 */
export interface TopicStore<Numbered extends number | Promise<number> = number | Promise<number>> {
  hasCache(cache: string): boolean;
  cacheNames(): string[];
  /** Creates a cache (false: it exists); a shared store makes it for every replica. */
  createCache(cache: string): boolean;
  /** Deletes a cache and its topics (false: no such cache); a shared store deletes it for every replica. */
  deleteCache(cache: string): boolean;
  /**
   * Whether the cache exists as the store holds it now: a shared store asks it (another replica
   * may have made it a moment ago) and holds it here too; in memory `hasCache`.
   */
  confirmCache(cache: string): Promise<boolean>;
  /** Resolves once the caches made and deleted here are so in a shared store (at once in memory). */
  settled(): Promise<void>;
  /**
   * The topic's position, the topic created on first use (its cache must exist). A shared store
   * refuses it while out of reach (503), as it refuses a publish.
   */
  use(cache: string, topic: string): TopicPosition;
  /** The topic's position; undefined for a topic not used yet (it is not created). */
  position(cache: string, topic: string): TopicPosition | undefined;
  /**
   * The answer for a cursor, or undefined when it must wait (or the topic is not used yet).
   * `maxItems` caps it below the batch size (an "after N items" fault lets N through).
   */
  read(cache: string, topic: string, cursor: Cursor, maxItems?: number): ReadAnswer | undefined;
  /** The messages a read delivers, each with its publisher (a stream sends them one by one); ask as it is answered. */
  delivered(cache: string, topic: string, read: ReadAnswer): DeliveredMessage[];
  /** The topic's content; undefined for a topic not used yet (it is not created). */
  content(cache: string, topic: string): TopicContent | undefined;
  /** Evicts and recreates a topic now: a new, greater page. Returns the new page. */
  changePage(cache: string, topic: string): number;
  snapshot(): TopicSnapshot[];
  /** Forgets every topic (the waiting requests are answered first, by their registry). */
  clear(): void;
  /** Every topic's content (a snapshot's topics). */
  contents(): TopicContent[];
  /** The greatest page given to a topic so far. */
  lastPage(): number;
  /**
   * Clears (as `clear`), then holds exactly these topics (their caches exist); pages given later
   * exceed `lastPage` and every loaded page.
   */
  restore(topics: readonly TopicContent[], lastPage: number): void;
  /**
   * Numbers, retains and tells of one message. In memory: at once, returning its number; a shared
   * store answers a promise, settled once the message is numbered there and this process holds it.
   */
  publish(cache: string, topic: string, value: MessageValue, publisher?: string): Numbered;
  /** Whether the store can serve now, and why not (a shared store's lost connection). */
  health(): StoreHealth;
  /** Forgets this process's view of the topics (shutdown): in memory the same as `clear`; a shared store keeps its data. */
  release(): void | Promise<void>;
  /** Who is told of every change: one listener, the core's (a second replaces the first). */
  listen(listener: TopicStoreListener): void;
}

/** What a store tells of the changes it holds, whoever made them. */
export interface TopicStoreListener {
  /** A topic changed: a message numbered (`published`, its number), or its page. */
  topicChanged(cache: string, topic: string, published?: number): void;
  /** Another writer of a shared store cleared it; told before the topics are forgotten here. */
  clearedElsewhere(): void;
  /** Another writer of a shared store made or deleted a cache; told before a deleted one's topics are forgotten here. */
  cacheChangedElsewhere(operationId: 'createCache' | 'deleteCache', cache: string): void;
}

/** A listener that hears nothing: a store's until the core listens. */
export const NOBODY_LISTENS: TopicStoreListener = {
  topicChanged: () => undefined,
  clearedElsewhere: () => undefined,
  cacheChangedElsewhere: () => undefined,
};

export interface StoreHealth {
  kind: 'memory' | 'redis';
  up: boolean;
}

export class InMemoryTopicStore implements TopicStore<number> {
  private readonly caches = new Map<string, Map<string, Topic>>();
  private readonly pages: PageSource;
  private listener: TopicStoreListener = NOBODY_LISTENS;
  private readonly news: TopicNews | undefined;
  // Traffic repeats a topic: the last one asked for is compared first (two string comparisons,
  // where the lookups hash both names). Forgotten with the topics it is one of.
  private last: Topic | undefined;

  constructor(
    /** The configured caches: what a reset comes back to, whatever was created or deleted since. */
    private readonly configured: readonly string[],
    private readonly settings: TopicSettings,
    clock: Clock,
    events?: EmulatorEvents,
  ) {
    for (const name of configured) this.caches.set(name, new Map());
    this.pages = new PageSource(clock);
    this.news = events && new TopicNews(events, clock);
  }

  hasCache(cache: string): boolean {
    return cache === this.last?.cache || this.caches.has(cache);
  }

  cacheNames(): string[] {
    return [...this.caches.keys()];
  }

  createCache(cache: string): boolean {
    if (this.caches.has(cache)) return false;
    this.caches.set(cache, new Map());
    return true;
  }

  deleteCache(cache: string): boolean {
    if (this.last?.cache === cache) this.last = undefined;
    return this.caches.delete(cache);
  }

  confirmCache(cache: string): Promise<boolean> {
    return Promise.resolve(this.hasCache(cache));
  }

  settled(): Promise<void> {
    return Promise.resolve();
  }

  use(cache: string, name: string): TopicPosition {
    return this.topic(cache, name).position;
  }

  position(cache: string, name: string): TopicPosition | undefined {
    return this.find(cache, name)?.position;
  }

  read(cache: string, name: string, cursor: Cursor, maxItems?: number): ReadAnswer | undefined {
    return this.find(cache, name)?.read(cursor, maxItems);
  }

  delivered(cache: string, name: string, read: ReadAnswer): DeliveredMessage[] {
    return this.find(cache, name)?.delivered(read) ?? [];
  }

  content(cache: string, name: string): TopicContent | undefined {
    const topic = this.find(cache, name);
    return topic && contentOf(topic);
  }

  listen(listener: TopicStoreListener): void {
    this.listener = listener;
  }

  /** The topic, created on first use (the cache must exist): a store built on this one works on it. */
  topic(cache: string, name: string): Topic {
    const last = this.last;
    if (last !== undefined && last.name === name && last.cache === cache) return last;
    const topics = this.caches.get(cache);
    if (!topics) throw new RangeError(`no cache ${cache}`);
    let topic = topics.get(name);
    if (!topic) {
      topic = this.newTopic(cache, name, this.pages.next());
      topics.set(name, topic);
    }
    this.last = topic;
    return topic;
  }

  /** The topic if used already: a store built on this one works on it. */
  find(cache: string, name: string): Topic | undefined {
    const last = this.last;
    if (last !== undefined && last.name === name && last.cache === cache) return last;
    return this.caches.get(cache)?.get(name);
  }

  /** Every topic held: a store built on this one works on them. */
  *topics(): Iterable<Topic> {
    for (const topics of this.caches.values()) yield* topics.values();
  }

  changePage(cache: string, name: string): number {
    const topic = this.topic(cache, name);
    topic.changePage(this.pages.next());
    return topic.page;
  }

  snapshot(): TopicSnapshot[] {
    return [...this.topics()].map((t) => t.snapshot());
  }

  /** Forgets every topic, and the caches are the configured ones again. */
  clear(): void {
    this.last = undefined;
    this.caches.clear();
    for (const name of this.configured) this.caches.set(name, new Map());
  }

  contents(): TopicContent[] {
    return [...this.topics()].map(contentOf);
  }

  lastPage(): number {
    return this.pages.last;
  }

  restore(topics: readonly TopicContent[], lastPage: number): void {
    this.clear();
    this.pages.passed(lastPage);
    for (const content of topics) {
      const topic = this.newTopic(content.cache, content.topic, content.page);
      topic.restore(
        content.nextSequenceNumber,
        content.messages.map((m) => messageValueOf(m.value)),
      );
      // A loaded topic's cache exists (the snapshot was checked against the caches there were).
      let topics = this.caches.get(content.cache);
      if (!topics) this.caches.set(content.cache, (topics = new Map<string, Topic>()));
      topics.set(content.topic, topic);
      this.pages.passed(content.page);
    }
  }

  publish(cache: string, name: string, value: MessageValue, publisher = ''): number {
    return this.topic(cache, name).publish(value, publisher);
  }

  health(): StoreHealth {
    return { kind: 'memory', up: true };
  }

  release(): void {
    this.clear();
  }

  /** Holds a topic at a page given elsewhere (a shared store's), replacing none: the topic must be new here. */
  place(cache: string, name: string, page: number): Topic {
    const topic = this.newTopic(cache, name, page);
    this.last = undefined;
    this.caches.get(cache)!.set(name, topic);
    this.pages.passed(page);
    return topic;
  }

  /** Pages given later exceed `page` (one given elsewhere). */
  passedPage(page: number): void {
    this.pages.passed(page);
  }

  /** A page greater than every page given or seen so far; `peekPage` tells it without giving it. */
  nextPage(): number {
    return this.pages.next();
  }

  peekPage(): number {
    return this.pages.peek();
  }

  // Every topic of the store is made here, whether created on use or loaded.
  private newTopic(cache: string, name: string, page: number): Topic {
    const topic = new Topic(cache, name, page, this.settings, this.news);
    topic.onChanged = (published) => this.listener.topicChanged(cache, name, published);
    return topic;
  }
}

function contentOf(topic: Topic): TopicContent {
  return {
    cache: topic.cache,
    topic: topic.name,
    page: topic.page,
    nextSequenceNumber: topic.position.next,
    messages: topic.retainedMessages(),
  };
}
