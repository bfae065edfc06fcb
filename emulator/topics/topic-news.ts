import type { Clock } from '../clock.js';
import type { EmulatorEvents, EventValue } from '../events.js';
import type { MessageValue } from './message.js';

// What a topic tells the event stream: a message numbered, a page changed. (Subscribers starting
// or stopping to wait are told by their registry, waiting.ts, which holds their count.) A
// topic asks `active` first, so with nobody listening a publish pays one boolean check and
// builds nothing; nor does it while only listeners of other kinds (the journal, the metrics) listen.

interface TopicFacts {
  readonly cache: string;
  readonly name: string;
  readonly page: number;
}

export class TopicNews {
  constructor(
    private readonly events: EmulatorEvents,
    private readonly clock: Clock,
  ) {}

  get active(): boolean {
    return this.events.listens('published') || this.events.listens('page-changed');
  }

  published(topic: TopicFacts, sequenceNumber: number, value: MessageValue): void {
    if (!this.events.listens('published')) return;
    const { cache, name, page } = topic;
    this.events.emit({
      kind: 'published',
      at: this.clock.now(),
      cache,
      topic: name,
      page,
      sequenceNumber,
      value: eventValue(value),
    });
  }

  pageChanged(topic: TopicFacts): void {
    if (!this.events.listens('page-changed')) return;
    this.events.emit({
      kind: 'page-changed',
      at: this.clock.now(),
      cache: topic.cache,
      topic: topic.name,
      page: topic.page,
    });
  }
}

export function eventValue(value: MessageValue): EventValue {
  if ('text' in value) return { text: value.text };
  const { buffer, byteOffset, byteLength } = value.binary;
  return { binary: Buffer.from(buffer, byteOffset, byteLength).toString('base64') };
}
