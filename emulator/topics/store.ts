import type { Clock } from '../clock.js';
import type { EmulatorEvents } from '../events.js';
import { PageSource } from './page-source.js';
import { TopicNews } from './topic-news.js';
import { Topic, type TopicSettings, type TopicSnapshot } from './topic.js';

/** The emulator's state: configured caches and the topics created in them on use. */
export interface TopicStore {
  hasCache(cache: string): boolean;
  cacheNames(): string[];
  /** The topic, created on first use (the cache must exist). */
  topic(cache: string, topic: string): Topic;
  find(cache: string, topic: string): Topic | undefined;
  topics(): Iterable<Topic>;
  /** Evicts and recreates a topic now: a new, greater page. Returns the new page. */
  changePage(cache: string, topic: string): number;
  snapshot(): TopicSnapshot[];
  /** Forgets every topic (the waiting requests are answered first, by their registry). */
  clear(): void;
}

export class InMemoryTopicStore implements TopicStore {
  private readonly caches = new Map<string, Map<string, Topic>>();
  private readonly pages: PageSource;
  private readonly news: TopicNews | undefined;

  constructor(
    cacheNames: readonly string[],
    private readonly settings: TopicSettings,
    clock: Clock,
    events?: EmulatorEvents,
  ) {
    for (const name of cacheNames) this.caches.set(name, new Map());
    this.pages = new PageSource(clock);
    this.news = events && new TopicNews(events, clock);
  }

  hasCache(cache: string): boolean {
    return this.caches.has(cache);
  }

  cacheNames(): string[] {
    return [...this.caches.keys()];
  }

  topic(cache: string, name: string): Topic {
    const topics = this.caches.get(cache);
    if (!topics) throw new RangeError(`no cache ${cache}`);
    let topic = topics.get(name);
    if (!topic) {
      topic = new Topic(cache, name, this.pages.next(), this.settings, this.news);
      topics.set(name, topic);
    }
    return topic;
  }

  find(cache: string, name: string): Topic | undefined {
    return this.caches.get(cache)?.get(name);
  }

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

  clear(): void {
    for (const topics of this.caches.values()) topics.clear();
  }
}
