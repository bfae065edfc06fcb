import type { RequestList } from '../../openapi/generated/control-types.js';
import type { EmulatorEvents } from '../events.js';
import type { ExchangeFacts } from '../exchange.js';
import { isJournalled } from './observers.js';
import { matcherOf, type JournalEntry, type RequestMatcher } from './query.js';

// The request journal: the last N answered requests (service and control plane), kept from the
// event stream's `request` records in a ring, so its memory is bounded whatever the traffic.
// Measured on Node 20 (heap after gc, 10,000 entries of publishes and subscribes with three
// items each): about 450 bytes per entry, so the default 10,000 entries hold about 4.5 MB.

export const DEFAULT_LIST_LIMIT = 100;

export class RequestJournal {
  // The records as emitted, and their ids alongside: nothing is copied on the request path.
  private readonly ring: (ExchangeFacts | undefined)[];
  private readonly ids: Float64Array;
  private next = 0;
  private size = 0;
  private lastId = 0;
  private evictedCount = 0;
  private readonly stop: () => void;

  constructor(
    events: EmulatorEvents,
    readonly capacity: number,
  ) {
    this.ring = new Array<ExchangeFacts | undefined>(capacity);
    this.ids = new Float64Array(capacity);
    this.stop =
      capacity > 0
        ? events.on((event) => {
            if (event.kind === 'request') this.record(event.record);
          })
        : () => false;
  }

  record(facts: ExchangeFacts): void {
    if (!isJournalled(facts)) return;
    if (this.size === this.capacity) this.evictedCount++;
    else this.size++;
    this.ring[this.next] = facts;
    this.ids[this.next] = ++this.lastId;
    this.next = (this.next + 1) % this.capacity;
  }

  private entry(slot: number): JournalEntry {
    return { id: this.ids[slot]!, ...this.ring[slot]! };
  }

  /** Oldest first: what the client rules read. */
  entries(): JournalEntry[] {
    const out: JournalEntry[] = [];
    const start = (this.next - this.size + this.capacity) % Math.max(this.capacity, 1);
    for (let i = 0; i < this.size; i++) out.push(this.entry((start + i) % this.capacity));
    return out;
  }

  /** Newest first, at most `limit` of those the matcher accepts. */
  list(matcher: RequestMatcher = {}, limit = DEFAULT_LIST_LIMIT): RequestList {
    const matches = matcherOf(matcher);
    const entries: JournalEntry[] = [];
    for (let i = 1; i <= this.size && entries.length < limit; i++) {
      const entry = this.entry((this.next - i + this.capacity) % this.capacity);
      if (matches(entry)) entries.push(entry);
    }
    return { entries, journalled: this.size, evicted: this.evictedCount, capacity: this.capacity };
  }

  count(matcher: RequestMatcher = {}): number {
    const matches = matcherOf(matcher);
    let count = 0;
    for (let i = 0; i < this.size; i++) if (matches(this.entry(i))) count++;
    return count;
  }

  /** Forgets every entry (the emulator's reset); ids keep increasing. */
  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
    this.size = 0;
    this.evictedCount = 0;
  }

  /** Stops listening (the emulator is closing). */
  dispose(): void {
    this.stop();
  }
}
