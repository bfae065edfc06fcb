import {
  acknowledged,
  type HistoryElement,
  type HistoryEvent,
  type PublishEvent,
  type ReadEvent,
  type RunEvent,
} from './events.js';

// The history indexed once, in one pass, for the checks: publishes by payload and by publisher,
// each subscriber's answers in order, and every delivery of a payload. Everything the checks do
// afterwards is linear (or n log n) in what is indexed here.

export interface Delivery {
  subscriber: string;
  read: ReadEvent;
  n: number;
  page: number;
}

/** One element of a subscriber's stream, with the answer it came in. */
export interface StreamElement {
  element: HistoryElement;
  read: ReadEvent;
}

export interface HistoryIndex {
  run: RunEvent | undefined;
  publishes: PublishEvent[];
  byPayload: Map<string, PublishEvent>;
  /** Each publisher's publishes, in the order it sent them. */
  byPublisher: Map<string, PublishEvent[]>;
  /** Each subscriber's answers, in the order it sent them (one at a time). */
  reads: Map<string, ReadEvent[]>;
  /** Each subscriber's elements, in the order delivered. */
  streams: Map<string, StreamElement[]>;
  deliveries: Map<string, Delivery[]>;
}

/** Where a publish was numbered, from its first delivery; undefined when no one received it. */
export function numberOf(index: HistoryIndex, payload: string): { page: number; n: number } | undefined {
  const first = index.deliveries.get(payload)?.[0];
  return first && { page: first.page, n: first.n };
}

/** (page, n) before (page', n'): pages only grow, numbers within one. */
export const before = (a: { page: number; n: number }, b: { page: number; n: number }): boolean =>
  a.page < b.page || (a.page === b.page && a.n < b.n);

export function indexHistory(events: Iterable<HistoryEvent>): HistoryIndex {
  const index: HistoryIndex = {
    run: undefined,
    publishes: [],
    byPayload: new Map(),
    byPublisher: new Map(),
    reads: new Map(),
    streams: new Map(),
    deliveries: new Map(),
  };
  for (const event of events) {
    if (event.type === 'run') index.run = event;
    else if (event.type === 'publish') {
      index.publishes.push(event);
      if (!index.byPayload.has(event.payload)) index.byPayload.set(event.payload, event);
      let own = index.byPublisher.get(event.publisher);
      if (own === undefined) index.byPublisher.set(event.publisher, (own = []));
      own.push(event);
    } else if (event.type === 'read') {
      let reads = index.reads.get(event.subscriber);
      if (reads === undefined) index.reads.set(event.subscriber, (reads = []));
      reads.push(event);
    }
  }
  // A history written as answers came may list a publisher's or subscriber's events out of send order.
  for (const own of index.byPublisher.values()) own.sort((a, b) => a.sentAt - b.sentAt);
  for (const [subscriber, reads] of index.reads) {
    reads.sort((a, b) => a.sentAt - b.sentAt);
    const stream: StreamElement[] = [];
    for (const read of reads)
      for (const element of read.elements) {
        stream.push({ element, read });
        if (element.kind !== 'item') continue;
        let delivered = index.deliveries.get(element.payload);
        if (delivered === undefined) index.deliveries.set(element.payload, (delivered = []));
        delivered.push({ subscriber, read, n: element.n, page: element.page });
      }
    index.streams.set(subscriber, stream);
  }
  return index;
}

/** The acknowledged publishes, in the order they were sent. */
export const acknowledgedPublishes = (index: HistoryIndex): PublishEvent[] =>
  index.publishes.filter(acknowledged).sort((a, b) => a.sentAt - b.sentAt);
