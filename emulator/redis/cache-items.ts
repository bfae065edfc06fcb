import type { SnapshotItem } from '../../openapi/generated/control-types.js';
import { memberBytes, memberKey, SCORE_BYTES, type Collection } from '../cache/collection.js';
import { CollectionOperations } from '../cache/collections.js';
import { InMemoryCacheItems, type CacheItems, type StoredItem } from '../cache/items.js';
import { CacheOperations } from '../cache/operations.js';
import { ItemReads, type ItemOps, type ItemStore, type LoadedItem } from '../cache/store.js';
import type { Clock } from '../clock.js';
import { EmulatorError } from '../errors.js';
import type { Log } from '../logging.js';
import { itemFromSnapshot, itemToSnapshot } from '../snapshot/items.js';
import type { KeyLayout } from './keys.js';
import type { ScriptName } from './scripts.js';

// The cache's items on Redis, shared by every replica (keys.ts has their layout). Each item is a
// native Redis value (a string, hash, set, list or sorted set) beside a meta entry with its
// version, size and expiry on the emulator's clock (not Redis's own expiry: a virtual clock
// expires items on every replica alike). A call reads the items at its keys in one script
// (read-items.lua), runs its operation on them here (cache/operations.ts, cache/collections.ts:
// the same code as in memory), and commits what it changed in another (commit-items.lua) only if
// none of those items changed meanwhile; else it reads them again and runs again. Every change
// is announced on the items channel, in the order Redis made it, and each replica keeps a mirror
// of every item from the announcements for what reads the whole (state, snapshots, listings).

/** Runs a script (scripts.ts) with its arguments: the number of keys, the keys, the rest. */
export type ScriptCall = (
  name: ScriptName | `${ScriptName}Buffer`,
  args: (string | number | Buffer)[],
) => Promise<unknown>;

/** How many times a call runs again when other replicas keep changing its items first. */
const ATTEMPTS = 20;
/** Items per script call when a cache is cleared, swept or loaded. */
const CHUNK = 500;
/** How long a change waits to see its own announcement before it answers anyway. */
const ANNOUNCED_WITHIN_MS = 2000;

/** Thrown by an operation's bound check that wants expired items dropped first (Redis is async). */
class SweepFirst extends Error {}
const SWEEP_FIRST = new SweepFirst('expired items are dropped first');

type RedisKind = 'string' | 'hash' | 'set' | 'list' | 'zset';

/** An item as read: the version its meta had ('0': absent) and the item, expired or not. */
interface Read {
  version: string;
  item: StoredItem | undefined;
}

/** What an announcement says (JSON after its version): a cache's items set (`i`) or removed, or dropped. */
interface Announcement {
  c: string;
  s?: { k: string; i?: SnapshotItem }[];
  d?: string[];
}

const memberOf = (key: Buffer) => key.toString('base64url');

export class RedisCacheItems extends ItemReads implements ItemStore {
  private mirror = new InMemoryCacheItems();
  /** Announcements held while the mirror loads (undefined: applied as they come). */
  private held: string[] | undefined = [];
  /** The last version the mirror holds. */
  private seen = 0;
  private readonly waiting = new Map<number, (() => void)[]>();
  /** The last call of this replica on each item (`<cache>\n<member>`), which the next one waits for. */
  private readonly turns = new Map<string, Promise<void>>();
  /** Clears and loads asked for (clear, clearAll, replace), made one after another. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly call: ScriptCall,
    private readonly redis: {
      get(key: string): Promise<string | null>;
      smembers(key: string): Promise<string[]>;
      hgetall(key: string): Promise<Record<string, string>>;
    },
    private readonly keys: KeyLayout,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly log: Log,
  ) {
    super();
  }

  /** The reads answer from the mirror (replaced whole when it loads again). */
  protected get itemsHere(): InMemoryCacheItems {
    return this.mirror;
  }

  async run<T>(cache: string, keys: readonly Buffer[], op: (ops: ItemOps) => T): Promise<T> {
    await this.queue;
    const members = [...new Set(keys.map(memberOf))];
    // Calls of this replica on the same items take turns, so only other replicas' changes make one run again.
    const release = await this.turn(members.map((member) => `${cache}\n${member}`));
    try {
      return await this.attempt(cache, members, op);
    } finally {
      release();
    }
  }

  /** Waits for the calls before it on any of these items; the release lets the next go. */
  private async turn(ids: readonly string[]): Promise<() => void> {
    const before = ids.map((id) => this.turns.get(id)).filter((turn) => turn !== undefined);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    for (const id of ids) this.turns.set(id, mine);
    await Promise.all(before);
    return () => {
      release();
      for (const id of ids) if (this.turns.get(id) === mine) this.turns.delete(id);
    };
  }

  private async attempt<T>(cache: string, members: readonly string[], op: (ops: ItemOps) => T): Promise<T> {
    let swept = false;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const { usage, read } = await this.read(cache, members);
      const staged = new StagedItems(read, usage, swept);
      const ops = {
        cache: new CacheOperations(staged, this.clock),
        collections: new CollectionOperations(staged, this.clock),
      };
      let result: T;
      try {
        result = op(ops);
      } catch (error) {
        if (error !== SWEEP_FIRST) throw error;
        await this.sweep(this.clock.now());
        swept = true;
        continue;
      }
      if (staged.writes.size === 0) return result;
      const version = await this.commit(cache, read, staged.writes);
      if (version > 0) {
        await this.announced(version);
        return result;
      }
      // Another replica changed them first: a moment apart, so two replicas do not keep colliding.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * attempt));
    }
    throw new EmulatorError(
      'service_unavailable',
      `Other replicas changed these items first ${ATTEMPTS} times in a row: try again.`,
    );
  }

  clear(cache: string): void {
    this.then(async () => this.drop(cache, Object.keys(await this.redis.hgetall(this.keys.itemMeta(cache))), 'all'));
  }

  clearAll(): void {
    this.then(() => this.dropEvery('all'));
  }

  replace(items: readonly LoadedItem[]): void {
    this.then(async () => {
      await this.dropEvery('all');
      for (let i = 0; i < items.length; i += CHUNK) {
        const byCache = new Map<string, LoadedItem[]>();
        for (const item of items.slice(i, i + CHUNK))
          byCache.set(item.cache, [...(byCache.get(item.cache) ?? []), item]);
        for (const [cache, list] of byCache) {
          const read = new Map(list.map(({ key }) => [memberKey(key), { version: '*', item: undefined }] as const));
          const writes = new Map(list.map(({ key, item }) => [memberKey(key), item] as const));
          await this.announced(await this.commit(cache, read, writes));
        }
      }
    });
  }

  settled(): Promise<void> {
    return this.queue;
  }

  close(): Promise<void> {
    this.held = undefined;
    this.wakeAll();
    return Promise.resolve();
  }

  /** Redis or the channel was lost: changes waiting for their announcement answer now; `load` follows. */
  lost(): void {
    this.held = undefined;
    this.wakeAll();
  }

  /** An announcement on the items channel: applied to the mirror, in order (held while it loads). */
  heard(text: string): void {
    if (this.held) this.held.push(text);
    else this.apply(text);
  }

  /** Loads the mirror from Redis (subscribed first: what is announced meanwhile is applied after). */
  async load(): Promise<void> {
    this.held = [];
    try {
      const base = Number((await this.redis.get(this.keys.itemVersion)) ?? 0);
      const loaded = new InMemoryCacheItems();
      for (const cache of await this.redis.smembers(this.keys.itemCaches)) {
        const members = Object.keys(await this.redis.hgetall(this.keys.itemMeta(cache)));
        for (let i = 0; i < members.length; i += CHUNK) {
          const { read } = await this.read(cache, members.slice(i, i + CHUNK));
          for (const [id, { item }] of read) if (item) loaded.set(cache, memberBytes(id), item);
        }
      }
      const held = this.held;
      this.mirror = loaded;
      this.seen = base;
      this.held = undefined;
      for (const text of held) this.apply(text);
      this.wake();
    } catch (error) {
      this.held = undefined;
      throw error;
    }
  }

  private then(work: () => Promise<void>): void {
    this.queue = this.queue
      .then(work)
      .catch((error: Error) => this.log.warn({ err: error.message }, 'redis store: changing the cache items failed'));
  }

  /** The items at `members` of `cache` as Redis holds them now, and every item's count and bytes. */
  private async read(
    cache: string,
    members: readonly string[],
  ): Promise<{ usage: { count: number; bytes: number }; read: Map<string, Read> }> {
    const keys = members.flatMap((member) => [this.keys.item(cache, member), this.keys.itemMeta(cache)]);
    const answer = (await this.call('readItemsBuffer', [
      1 + keys.length,
      this.keys.itemUsage,
      ...keys,
      ...members,
    ])) as (Buffer | Buffer[])[];
    const read = new Map<string, Read>();
    members.forEach((member, i) => {
      const meta = String(answer[2 + 3 * i]);
      const kind = String(answer[3 + 3 * i]);
      const data = answer[4 + 3 * i] as Buffer[];
      const id = memberKey(Buffer.from(member, 'base64url'));
      if (meta === '') return read.set(id, { version: '0', item: undefined });
      const [version, , expiresAt] = meta.split(' ') as [string, string, string];
      read.set(id, { version, item: itemOfNative(kind, data, Number(expiresAt)) });
    });
    return { usage: { count: Number(String(answer[0])), bytes: Number(String(answer[1])) }, read };
  }

  /** Makes the changes if none of the items read changed since: the new version, or 0. */
  private async commit(
    cache: string,
    read: Map<string, Read>,
    writes: Map<string, StoredItem | null>,
  ): Promise<number> {
    const keys: string[] = [];
    const args: (string | number | Buffer)[] = [];
    const changes: NonNullable<Announcement['s']> = [];
    for (const [id, { version }] of read) {
      const key = memberBytes(id);
      const member = memberOf(key);
      keys.push(this.keys.item(cache, member), this.keys.itemMeta(cache));
      const item = writes.get(id);
      if (item === undefined) args.push(member, cache, version, 'check', '', '0', '0', 0);
      else if (item === null) {
        args.push(member, cache, version, 'del', '', '0', '0', 0);
        changes.push({ k: member });
      } else {
        const { kind, data } = nativeOf(item);
        args.push(member, cache, version, 'put', kind, String(item.expiresAt), key.length + item.size, data.length);
        for (const part of data) args.push(part);
        changes.push({ k: member, i: itemToSnapshot({ cache, key, ...item }, 0) });
      }
    }
    const announcement: Announcement = { c: cache, s: changes };
    return Number(
      await this.call('commitItems', [
        3 + keys.length,
        this.keys.itemUsage,
        this.keys.itemVersion,
        this.keys.itemCaches,
        ...keys,
        this.keys.itemsChannel,
        JSON.stringify(announcement),
        read.size,
        ...args,
      ]),
    );
  }

  /** Drops the members of a cache that expire at or before `limit` ('all': every one). */
  private async drop(cache: string, members: readonly string[], limit: string): Promise<void> {
    for (let i = 0; i < members.length; i += CHUNK) {
      const chunk = members.slice(i, i + CHUNK);
      const version = await this.call('dropItems', [
        3 + chunk.length,
        this.keys.itemUsage,
        this.keys.itemVersion,
        this.keys.itemMeta(cache),
        ...chunk.map((member) => this.keys.item(cache, member)),
        this.keys.itemsChannel,
        cache,
        limit,
        ...chunk,
      ]);
      await this.announced(Number(version));
    }
  }

  /** Drops every cache's items that expire at or before `limit` ('all': every one). */
  private async dropEvery(limit: string): Promise<void> {
    for (const cache of await this.redis.smembers(this.keys.itemCaches)) {
      const metas = Object.entries(await this.redis.hgetall(this.keys.itemMeta(cache)));
      const within = limit === 'all' ? metas : metas.filter(([, meta]) => Number(meta.split(' ')[2]) <= Number(limit));
      await this.drop(
        cache,
        within.map(([member]) => member),
        limit,
      );
    }
  }

  /** Drops every expired item, so a call past a bound counts only live ones. */
  private sweep(now: number): Promise<void> {
    return this.dropEvery(String(now));
  }

  private apply(text: string): void {
    const space = text.indexOf(' ');
    const version = Number(text.slice(0, space));
    if (version <= this.seen) return;
    const { c: cache, s, d } = JSON.parse(text.slice(space + 1)) as Announcement;
    for (const { k, i } of s ?? []) {
      const key = Buffer.from(k, 'base64url');
      if (i) this.mirror.set(cache, key, itemFromSnapshot(i, 0));
      else this.mirror.delete(cache, key, 0);
    }
    for (const k of d ?? []) this.mirror.delete(cache, Buffer.from(k, 'base64url'), 0);
    this.seen = version;
    this.wake();
  }

  /** Resolves once the mirror holds `version` (or the wait is over: the change is made either way). */
  private announced(version: number): Promise<void> {
    if (version <= this.seen) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ANNOUNCED_WITHIN_MS);
      timer.unref();
      const list = this.waiting.get(version) ?? [];
      list.push(() => {
        clearTimeout(timer);
        resolve();
      });
      this.waiting.set(version, list);
    });
  }

  private wake(): void {
    for (const [version, list] of this.waiting) {
      if (version > this.seen) continue;
      this.waiting.delete(version);
      for (const done of list) done();
    }
  }

  private wakeAll(): void {
    for (const list of this.waiting.values()) for (const done of list) done();
    this.waiting.clear();
  }
}

/**
 * The items one call may touch, as read from Redis, with its changes kept aside until they are
 * committed. Bounds count from Redis's totals and these changes; a bound that wants expired items
 * dropped first stops the call (SWEEP_FIRST), which runs again after the sweep.
 */
class StagedItems implements CacheItems {
  readonly writes = new Map<string, StoredItem | null>();

  constructor(
    private readonly read: Map<string, Read>,
    private readonly usage: { count: number; bytes: number },
    private readonly swept: boolean,
  ) {}

  get(_cache: string, key: Buffer, now: number): StoredItem | undefined {
    const item = this.current(memberKey(key));
    return item && item.expiresAt > now ? item : undefined;
  }

  set(_cache: string, key: Buffer, item: StoredItem): void {
    const id = memberKey(key);
    this.current(id);
    this.writes.set(id, item);
  }

  delete(_cache: string, key: Buffer, now: number): boolean {
    const id = memberKey(key);
    const item = this.current(id);
    if (item === undefined) return false;
    this.writes.set(id, null);
    return item.expiresAt > now;
  }

  count(): number {
    let count = this.usage.count;
    for (const [id, item] of this.writes) count += (item ? 1 : 0) - (this.read.get(id)!.item ? 1 : 0);
    return count;
  }

  bytes(): number {
    let bytes = this.usage.bytes;
    const sizeOf = (id: string, item: StoredItem | null | undefined) => (item ? id.length + item.size : 0);
    for (const [id, item] of this.writes) bytes += sizeOf(id, item) - sizeOf(id, this.read.get(id)!.item);
    return bytes;
  }

  sweep(): void {
    if (!this.swept) throw SWEEP_FIRST;
  }

  clear(): void {
    throw new Error('a call changes only the items at its keys');
  }

  clearAll(): void {
    throw new Error('a call changes only the items at its keys');
  }

  items(): never {
    throw new Error('a call reads only the items at its keys');
  }

  /** The item at a key, with this call's changes; a key the call did not name is a mistake here. */
  private current(id: string): StoredItem | undefined {
    if (this.writes.has(id)) return this.writes.get(id) ?? undefined;
    const read = this.read.get(id);
    if (read === undefined) throw new Error('an operation touched a key its call did not name');
    return read.item;
  }
}

/** An item as Redis holds it natively: its type and data (see commit-items.lua). */
function nativeOf(item: StoredItem): { kind: RedisKind; data: Buffer[] } {
  const collection = item.collection;
  if (collection === undefined) return { kind: 'string', data: [item.value] };
  switch (collection.type) {
    case 'dictionary':
      return { kind: 'hash', data: [...collection.fields].flatMap(([field, value]) => [memberBytes(field), value]) };
    case 'set':
      return { kind: 'set', data: [...collection.elements].map(memberBytes) };
    case 'list':
      return { kind: 'list', data: collection.values };
    case 'sorted-set':
      return {
        kind: 'zset',
        data: [...collection.scores].flatMap(([member, score]) => [Buffer.from(String(score)), memberBytes(member)]),
      };
  }
}

/** The item Redis's native value is (read-items.lua's data); undefined for a type it never writes. */
function itemOfNative(kind: string, data: Buffer[], expiresAt: number): StoredItem | undefined {
  const pairs = () => Array.from({ length: data.length / 2 }, (_, i) => [data[2 * i]!, data[2 * i + 1]!] as const);
  let collection: Collection;
  switch (kind) {
    case 'string':
      return { value: data[0]!, expiresAt, size: data[0]!.length };
    case 'hash': {
      const fields = new Map(pairs().map(([field, value]) => [memberKey(field), value] as const));
      collection = { type: 'dictionary', fields, bytes: pairs().reduce((n, [f, v]) => n + f.length + v.length, 0) };
      break;
    }
    case 'set':
      collection = {
        type: 'set',
        elements: new Set(data.map(memberKey)),
        bytes: data.reduce((n, e) => n + e.length, 0),
      };
      break;
    case 'list':
      collection = { type: 'list', values: data, bytes: data.reduce((n, v) => n + v.length, 0) };
      break;
    case 'zset':
      collection = {
        type: 'sorted-set',
        scores: new Map(pairs().map(([member, score]) => [memberKey(member), Number(String(score))] as const)),
        bytes: pairs().reduce((n, [member]) => n + member.length + SCORE_BYTES, 0),
      };
      break;
    default:
      return undefined;
  }
  return { value: Buffer.alloc(0), collection, expiresAt, size: collection.bytes };
}
