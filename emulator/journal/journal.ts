import type { RequestList } from '../../openapi/generated/control-types.js';
import type { EmulatorEvents } from '../events.js';
import type { ExchangeFacts } from '../exchange.js';
import { isJournalled } from './observers.js';
import { matcherOf, type JournalEntry, type RequestMatcher } from './query.js';

// The request journal: the last N answered requests (service and control plane), kept from the
// event stream's `request` records in a ring, so its memory is bounded whatever the traffic.
//
// It is on by default, so recording is on every request's path: the ring keeps each entry's facts
// side by side in two flat arrays (its references, then its numbers and flags, each at a fixed
// stride) rather than the record itself, so an entry is plain writes to two or three cache lines
// and the record dies young. (One array per fact was tried first: the same writes, but spread over
// 23 arrays, cost a cache miss each on a busy server.) Paths, caches and topics, which repeat, are
// kept once per distinct value. Measured on Node 20 (heap after gc, 10,000 entries, half
// publishes, half subscribes with three items each): about 190 bytes per entry (the records
// themselves took about 450), so the default 10,000 entries hold about 2 MB. An entry is built
// again, in the record's shape, only when the journal is read.

export const DEFAULT_LIST_LIMIT = 100;

/**
 * The most characters an entry keeps of a path, cache, topic or client name: whatever a request
 * sends (an 8,000-character path, a token claiming a long id), an entry stays small. Names longer
 * than 255 are refused by the service anyway; a longer value is kept as its start and '…'.
 */
export const MAX_KEPT_CHARS = 256;

const bounded = <T extends string | null>(value: T): T =>
  (value !== null && value.length > MAX_KEPT_CHARS ? `${value.slice(0, MAX_KEPT_CHARS - 1)}…` : value) as T;

/**
 * Strings the ring keeps once per distinct value (paths, caches, topics: a pool for each);
 * bounded, like everything here. Traffic repeats the last value most of the time: it is
 * compared first, which costs less than hashing a string new to the process.
 */
class StringPool {
  private readonly values = new Map<string, string>();
  private last: string | null = null;

  constructor(private readonly limit: number) {}

  of<T extends string | null>(value: T): T {
    if (value === null) return value;
    if (value === this.last) return this.last as T;
    let known = this.values.get(value);
    if (known === undefined) {
      if (this.values.size >= this.limit) this.values.clear();
      this.values.set(value, (known = value));
    }
    this.last = known;
    return known as T;
  }

  clear(): void {
    this.values.clear();
    this.last = null;
  }
}

type Facts = ExchangeFacts;

/** An entry's references, at these offsets of its slice of `refs`. */
const PLANE = 0;
const OPERATION = 1;
const METHOD = 2;
const PATH = 3;
const CACHE = 4;
const TOPIC = 5;
const CURSOR = 6;
const CLIENT = 7;
const CREDENTIAL_PLACE = 8;
const STATUS = 9;
const CODE = 10;
const RETRY_AFTER = 11;
const DECIDED_BY = 12;
const ITEMS = 13;
const PAGE = 14;
const DISCONTINUITY = 15;
const PROTOCOL = 16;
const REFS = 17;

/** An entry's numbers, at these offsets of its slice of `numbers`; its booleans are bits of FLAGS. */
const ID = 0;
const AT = 1;
const DURATION = 2;
const CONNECTION = 3;
const WAITED = 4;
const FLAGS = 5;
/** A subscribe's items are consecutive numbers: kept as the first and how many (none: count 0). */
const ITEMS_FROM = 6;
const ITEMS_COUNT = 7;
/** A gRPC stream's items in all; -1 for every other entry (no `delivered`). */
const DELIVERED = 8;
const NUMBERS = 9;

const BEARER = 1;
const DROPPED = 2;
const CLIENT_GONE = 4;

type Ref = Facts[keyof Facts];

const itemsFrom = (from: number, count: number): number[] => Array.from({ length: count }, (_, i) => from + i);

export class RequestJournal {
  private readonly refs: Ref[];
  private readonly numbers: Float64Array;
  private readonly paths: StringPool;
  private readonly caches: StringPool;
  private readonly topics: StringPool;
  private next = 0;
  private size = 0;
  private lastId = 0;
  private evictedCount = 0;
  private readonly stop: () => void;

  constructor(
    events: EmulatorEvents,
    readonly capacity: number,
  ) {
    this.refs = new Array<Ref>(capacity * REFS).fill(null);
    this.numbers = new Float64Array(capacity * NUMBERS);
    const pooled = Math.max(capacity, 1000);
    this.paths = new StringPool(pooled);
    this.caches = new StringPool(pooled);
    this.topics = new StringPool(pooled);
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
    const r = this.refs;
    const o = i * REFS;
    r[o + PLANE] = facts.plane;
    r[o + OPERATION] = facts.operation;
    r[o + METHOD] = facts.method;
    r[o + PATH] = this.paths.of(bounded(facts.path));
    r[o + CACHE] = this.caches.of(bounded(facts.cache));
    r[o + TOPIC] = this.topics.of(bounded(facts.topic));
    r[o + CURSOR] = facts.cursor;
    r[o + CLIENT] = bounded(facts.client);
    r[o + CREDENTIAL_PLACE] = facts.credentialPlace;
    r[o + STATUS] = facts.status;
    r[o + CODE] = facts.code;
    r[o + RETRY_AFTER] = facts.retryAfterSeconds;
    r[o + DECIDED_BY] = facts.decidedBy;
    const { items } = facts;
    const consecutive = items.length === 0 || items.at(-1)! - items[0]! === items.length - 1;
    // Consecutive (as every read's are): two numbers, however many; otherwise the list itself.
    r[o + ITEMS] = consecutive ? null : items;
    r[o + PAGE] = facts.page;
    r[o + DISCONTINUITY] = facts.discontinuity;
    r[o + PROTOCOL] = facts.protocol;
    const n = this.numbers;
    const p = i * NUMBERS;
    n[p + ID] = ++this.lastId;
    n[p + AT] = facts.at;
    n[p + DURATION] = facts.durationMs;
    n[p + CONNECTION] = facts.connectionId;
    n[p + WAITED] = facts.waitedMs;
    n[p + FLAGS] = (facts.bearer ? BEARER : 0) | (facts.dropped ? DROPPED : 0) | (facts.clientGone ? CLIENT_GONE : 0);
    n[p + ITEMS_FROM] = consecutive && items.length > 0 ? items[0]! : 0;
    n[p + ITEMS_COUNT] = consecutive ? items.length : 0;
    n[p + DELIVERED] = facts.delivered ?? -1;
    this.next = (i + 1) % this.capacity;
  }

  /** The entry in one slot, in the record's shape (its id first). */
  private entry(i: number): JournalEntry {
    const r = this.refs;
    const o = i * REFS;
    const n = this.numbers;
    const p = i * NUMBERS;
    const flags = n[p + FLAGS]!;
    const delivered = n[p + DELIVERED]!;
    return {
      id: n[p + ID]!,
      protocol: r[o + PROTOCOL] as Facts['protocol'],
      plane: r[o + PLANE] as Facts['plane'],
      operation: r[o + OPERATION] as Facts['operation'],
      method: r[o + METHOD] as Facts['method'],
      path: r[o + PATH] as Facts['path'],
      at: n[p + AT]!,
      durationMs: n[p + DURATION]!,
      connectionId: n[p + CONNECTION]!,
      cache: r[o + CACHE] as Facts['cache'],
      topic: r[o + TOPIC] as Facts['topic'],
      cursor: r[o + CURSOR] as Facts['cursor'],
      client: r[o + CLIENT] as Facts['client'],
      credentialPlace: r[o + CREDENTIAL_PLACE] as Facts['credentialPlace'],
      bearer: (flags & BEARER) !== 0,
      status: r[o + STATUS] as Facts['status'],
      code: r[o + CODE] as Facts['code'],
      retryAfterSeconds: r[o + RETRY_AFTER] as Facts['retryAfterSeconds'],
      decidedBy: r[o + DECIDED_BY] as Facts['decidedBy'],
      items: (r[o + ITEMS] as Facts['items'] | null) ?? itemsFrom(n[p + ITEMS_FROM]!, n[p + ITEMS_COUNT]!),
      page: r[o + PAGE] as Facts['page'],
      discontinuity: r[o + DISCONTINUITY] as Facts['discontinuity'],
      ...(delivered >= 0 ? { delivered } : {}),
      dropped: (flags & DROPPED) !== 0,
      clientGone: (flags & CLIENT_GONE) !== 0,
      waitedMs: n[p + WAITED]!,
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
    this.refs.fill(null);
    this.paths.clear();
    this.caches.clear();
    this.topics.clear();
    this.next = 0;
    this.size = 0;
    this.evictedCount = 0;
  }

  /** Stops listening (the emulator is closing). */
  dispose(): void {
    this.stop();
  }
}
