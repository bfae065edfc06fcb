import type { RequestList } from '../../openapi/generated/control-types.js';
import type { EmulatorEvents } from '../events.js';
import type { ExchangeFacts } from '../exchange.js';
import { isJournalled } from './observers.js';
import { matcherOf, type JournalEntry, type RequestMatcher } from './query.js';

// The request journal: the last N answered requests (service and control plane), kept from the
// event stream's `request` records in a ring, so its memory is bounded whatever the traffic.
//
// It is on by default, so recording is on every request's path: the ring keeps each fact in a
// column (numbers and booleans in typed arrays; paths, caches and topics, which repeat, once per
// distinct value) rather than the record itself, so an entry is plain writes and the record dies
// young. Measured on Node 20 (heap after gc, 10,000 entries, half publishes, half subscribes
// with three items each): about 190 bytes per entry (the records themselves took about 450), so
// the default 10,000 entries hold about 2 MB. An entry is built again, in the record's shape,
// only when the journal is read.

export const DEFAULT_LIST_LIMIT = 100;

/** Strings the ring keeps once per distinct value (paths, caches, topics); bounded, like everything here. */
class StringPool {
  private readonly values = new Map<string, string>();

  constructor(private readonly limit: number) {}

  of<T extends string | null>(value: T): T {
    if (value === null) return value;
    const known = this.values.get(value);
    if (known !== undefined) return known as T;
    if (this.values.size >= this.limit) this.values.clear();
    this.values.set(value, value);
    return value;
  }

  clear(): void {
    this.values.clear();
  }
}

/** A column of the ring for values that are references (strings, small objects, null). */
const column = <T>(capacity: number) => new Array<T | null>(capacity).fill(null);

type Facts = ExchangeFacts;

/** The ring's columns: one per fact (exchange.ts describes them); numbers and booleans in typed arrays. */
function columnsOf(capacity: number) {
  return {
    plane: column<Facts['plane']>(capacity),
    operation: column<string>(capacity),
    method: column<string>(capacity),
    path: column<string>(capacity),
    at: new Float64Array(capacity),
    durationMs: new Float64Array(capacity),
    connectionId: new Float64Array(capacity),
    cache: column<string>(capacity),
    topic: column<string>(capacity),
    cursor: column<Facts['cursor']>(capacity),
    client: column<string>(capacity),
    credentialPlace: column<Facts['credentialPlace']>(capacity),
    bearer: new Uint8Array(capacity),
    status: column<number>(capacity),
    code: column<string>(capacity),
    retryAfterSeconds: column<number>(capacity),
    decidedBy: column<Facts['decidedBy']>(capacity),
    items: column<number[]>(capacity),
    page: column<number>(capacity),
    discontinuity: column<Facts['discontinuity']>(capacity),
    dropped: new Uint8Array(capacity),
    clientGone: new Uint8Array(capacity),
    waitedMs: new Float64Array(capacity),
  };
}

export class RequestJournal {
  private readonly ids: Float64Array;
  private readonly columns: ReturnType<typeof columnsOf>;
  private readonly strings: StringPool;
  private next = 0;
  private size = 0;
  private lastId = 0;
  private evictedCount = 0;
  private readonly stop: () => void;

  constructor(
    events: EmulatorEvents,
    readonly capacity: number,
  ) {
    this.ids = new Float64Array(capacity);
    this.columns = columnsOf(capacity);
    this.strings = new StringPool(Math.max(capacity, 1000));
    this.stop =
      capacity > 0
        ? events.on(
            (event) => {
              if (event.kind === 'request') this.record(event.record);
            },
            ['request'],
          )
        : () => false;
  }

  record(facts: ExchangeFacts): void {
    if (!isJournalled(facts)) return;
    if (this.capacity === 0) return;
    if (this.size === this.capacity) this.evictedCount++;
    else this.size++;
    const i = this.next;
    const c = this.columns;
    const strings = this.strings;
    this.ids[i] = ++this.lastId;
    c.plane[i] = facts.plane;
    c.operation[i] = facts.operation;
    c.method[i] = facts.method;
    c.path[i] = strings.of(facts.path);
    c.at[i] = facts.at;
    c.durationMs[i] = facts.durationMs;
    c.connectionId[i] = facts.connectionId;
    c.cache[i] = strings.of(facts.cache);
    c.topic[i] = strings.of(facts.topic);
    c.cursor[i] = facts.cursor;
    c.client[i] = facts.client;
    c.credentialPlace[i] = facts.credentialPlace;
    c.bearer[i] = facts.bearer ? 1 : 0;
    c.status[i] = facts.status;
    c.code[i] = facts.code;
    c.retryAfterSeconds[i] = facts.retryAfterSeconds;
    c.decidedBy[i] = facts.decidedBy;
    c.items[i] = facts.items;
    c.page[i] = facts.page;
    c.discontinuity[i] = facts.discontinuity;
    c.dropped[i] = facts.dropped ? 1 : 0;
    c.clientGone[i] = facts.clientGone ? 1 : 0;
    c.waitedMs[i] = facts.waitedMs;
    this.next = (i + 1) % this.capacity;
  }

  /** The entry in one slot, in the record's shape (its id first). */
  private entry(i: number): JournalEntry {
    const c = this.columns;
    return {
      id: this.ids[i]!,
      plane: c.plane[i]!,
      operation: c.operation[i]!,
      method: c.method[i]!,
      path: c.path[i]!,
      at: c.at[i]!,
      durationMs: c.durationMs[i]!,
      connectionId: c.connectionId[i]!,
      cache: c.cache[i]!,
      topic: c.topic[i]!,
      cursor: c.cursor[i]!,
      client: c.client[i]!,
      credentialPlace: c.credentialPlace[i]!,
      bearer: c.bearer[i] === 1,
      status: c.status[i]!,
      code: c.code[i]!,
      retryAfterSeconds: c.retryAfterSeconds[i]!,
      decidedBy: c.decidedBy[i]!,
      items: c.items[i]!,
      page: c.page[i]!,
      discontinuity: c.discontinuity[i]!,
      dropped: c.dropped[i] === 1,
      clientGone: c.clientGone[i] === 1,
      waitedMs: c.waitedMs[i]!,
    };
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
    // References are let go; numbers stay (nothing reads a slot past `size`).
    for (const values of Object.values(this.columns)) if (Array.isArray(values)) values.fill(null);
    this.strings.clear();
    this.next = 0;
    this.size = 0;
    this.evictedCount = 0;
  }

  /** Stops listening (the emulator is closing). */
  dispose(): void {
    this.stop();
  }
}
