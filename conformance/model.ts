// The stream model: what the client published (and when, on a logical clock of the
// client's own events), what each subscriber received, and the properties that must hold
// between the two. It knows nothing of HTTP; the stream runner feeds it.
import type { Cursor } from './exchange.js';
import {
  describeValue,
  otherEncodings,
  type DeliveredValue,
  type Element,
  type Item,
  type MessageValue,
} from './elements.js';

export type ModelRule =
  | 'stream.same-order-for-all'
  | 'stream.publish-order'
  | 'stream.no-loss'
  | 'stream.no-duplicates'
  | 'stream.values-byte-exact'
  | 'value.binary-base64';

export interface ModelViolation {
  rule: ModelRule;
  message: string;
  /** Exchanges that show it (the answers involved). */
  exchangeIds: number[];
}

export type PublishOutcome = 'pending' | 'acked' | 'rejected' | 'unknown';

export interface PublishRecord {
  id: number;
  value: MessageValue;
  /** 'sentinel' ends the stream; 'nudge' wakes a first request and is never required. */
  label?: 'sentinel' | 'nudge' | 'warm-up';
  start: number;
  end?: number;
  outcome: PublishOutcome;
  exchangeId?: number;
}

export interface Receipt {
  subscriber: string;
  at: number;
  cursor: Cursor;
  /** The cursor was deliberately wrong (a page the topic never had): a discontinuity is due. */
  stale: boolean;
  elements: Element[];
  exchangeId: number;
}

interface ResetRecord {
  start: number;
  end?: number;
}

interface Entry {
  key: string;
  page: number;
  n: number;
  value: DeliveredValue;
  firstAt: number;
  exchangeId: number;
}

/** A value's identity for counting: kind plus exact content. */
export function valueKey(value: DeliveredValue): string {
  if (value.kind === 'text') return `t:${value.text}`;
  if (value.kind === 'binary') return `b:${Buffer.from(value.bytes).toString('hex')}`;
  return `o:${JSON.stringify(value.raw)}`;
}

const textAsBinaryKey = (text: string): string => `b:${Buffer.from(text, 'utf8').toString('hex')}`;

const MAX_PER_RULE = 3;

export class StreamModel {
  private clock = 0;
  readonly publishes: PublishRecord[] = [];
  readonly receipts: Receipt[] = [];
  private readonly resets: ResetRecord[] = [];
  private readonly joined = new Map<string, number>();
  private readonly finished = new Set<string>();
  private readonly subscriberIds = new Set<string>();
  private sentinel?: PublishRecord;

  /** The next tick of the client's logical clock: strictly increasing, one per event. */
  now(): number {
    this.clock += 1;
    return this.clock;
  }

  publishStarted(value: MessageValue, label?: PublishRecord['label']): PublishRecord {
    const record: PublishRecord = { id: this.publishes.length + 1, value, start: this.now(), outcome: 'pending' };
    if (label) record.label = label;
    if (label === 'sentinel') this.sentinel = record;
    this.publishes.push(record);
    return record;
  }

  publishEnded(record: PublishRecord, outcome: Exclude<PublishOutcome, 'pending'>, exchangeId?: number): void {
    record.end = this.now();
    record.outcome = outcome;
    if (exchangeId !== undefined) record.exchangeId = exchangeId;
  }

  addSubscriber(id: string): void {
    this.subscriberIds.add(id);
  }

  received(subscriber: string, cursor: Cursor, elements: Element[], exchangeId: number, stale = false): Receipt {
    const receipt: Receipt = { subscriber, at: this.now(), cursor, stale, elements, exchangeId };
    this.receipts.push(receipt);
    if (!this.joined.has(subscriber) && elements.some((e) => e.kind !== 'malformed'))
      this.joined.set(subscriber, receipt.at);
    return receipt;
  }

  /** The subscriber saw the end of the stream (the sentinel or a later message). */
  finish(subscriber: string): void {
    this.finished.add(subscriber);
  }

  resetStarted(): ResetRecord {
    const record: ResetRecord = { start: this.now() };
    this.resets.push(record);
    return record;
  }

  resetEnded(record: ResetRecord): void {
    record.end = this.now();
  }

  check(): ModelViolation[] {
    const violations: ModelViolation[] = [];
    const add = (violation: ModelViolation): void => {
      if (violations.filter((v) => v.rule === violation.rule).length < MAX_PER_RULE) violations.push(violation);
    };
    const entries = this.globalLog(add);
    const { assigned, unmatched, keys } = this.matchPublishes(entries, add);
    this.checkOrder(entries, assigned, add);
    this.checkLoss(unmatched, keys, add);
    return violations;
  }

  /** Every (page, number) seen by anyone, with one value; a second value is a violation. */
  private globalLog(add: (v: ModelViolation) => void): Entry[] {
    const log = new Map<string, Entry>();
    for (const receipt of this.receipts) {
      for (const element of receipt.elements) {
        if (element.kind !== 'item') continue;
        const key = `${element.page}:${element.n}`;
        const known = log.get(key);
        if (!known) {
          log.set(key, {
            key,
            page: element.page,
            n: element.n,
            value: element.value,
            firstAt: receipt.at,
            exchangeId: receipt.exchangeId,
          });
        } else if (valueKey(known.value) !== valueKey(element.value)) {
          add({
            rule: 'stream.same-order-for-all',
            message: `(page ${element.page}, number ${element.n}) was ${describeValue(known.value)} in one answer and ${describeValue(element.value)} in another (${receipt.subscriber})`,
            exchangeIds: [known.exchangeId, receipt.exchangeId],
          });
        }
      }
    }
    // Pages in the order they were first seen, then numbers: the topic's order as observed.
    const pageRank = new Map<number, number>();
    for (const entry of [...log.values()].sort((a, b) => a.firstAt - b.firstAt)) {
      if (!pageRank.has(entry.page)) pageRank.set(entry.page, pageRank.size);
    }
    return [...log.values()].sort((a, b) => pageRank.get(a.page)! - pageRank.get(b.page)! || a.n - b.n);
  }

  /**
   * Pairs each delivered entry with a publish of the same value (earliest unassigned first)
   * and reports values never published and values delivered more often than published.
   */
  private matchPublishes(
    entries: Entry[],
    add: (v: ModelViolation) => void,
  ): { assigned: Map<Entry, PublishRecord>; unmatched: Entry[]; keys: Map<string, string> } {
    const available = new Map<string, PublishRecord[]>();
    for (const record of this.publishes) {
      if (record.outcome === 'rejected') continue;
      const key = valueKey(record.value);
      available.set(key, [...(available.get(key) ?? []), record]);
    }
    const published = new Map([...available.entries()].map(([key, list]) => [key, list.length]));
    const assigned = new Map<Entry, PublishRecord>();
    const unmatched: Entry[] = [];
    const delivered = new Map<string, Entry[]>();
    /** (page:number) -> the value key it counts as. */
    const keys = new Map<string, string>();
    for (const entry of entries) {
      let key = this.representationKey(entry, published, add);
      if (key === undefined) continue; // unreadable binary: value.binary-base64 reports it
      if (!published.has(key) && entry.value.kind === 'text' && published.has(textAsBinaryKey(entry.value.text))) {
        // A binary message delivered as text: the representation is not documented.
        key = textAsBinaryKey(entry.value.text);
        add({
          rule: 'value.binary-base64',
          message: `a binary message came back as text at (page ${entry.page}, number ${entry.n}), not as value.binary`,
          exchangeIds: [entry.exchangeId],
        });
      }
      keys.set(entry.key, key);
      delivered.set(key, [...(delivered.get(key) ?? []), entry]);
      const candidates = available.get(key);
      if (!published.has(key)) {
        unmatched.push(entry);
        add({
          rule: 'stream.values-byte-exact',
          message: `(page ${entry.page}, number ${entry.n}) delivered ${describeValue(entry.value)}, which was never published${this.closest(entry.value)}`,
          exchangeIds: [entry.exchangeId],
        });
      } else if (candidates && candidates.length > 0) {
        candidates.sort((a, b) => a.start - b.start);
        assigned.set(entry, candidates.shift()!);
      }
    }
    for (const [key, list] of delivered) {
      const times = published.get(key) ?? 0;
      if (times > 0 && list.length > times) {
        add({
          rule: 'stream.no-duplicates',
          message: `${describeValue(list[0]!.value)} was published ${times} time(s) but delivered as ${list.length} messages: ${list.map((e) => `(page ${e.page}, number ${e.n})`).join(', ')}`,
          exchangeIds: list.map((e) => e.exchangeId),
        });
      }
    }
    return { assigned, unmatched, keys };
  }

  /**
   * The key to count an entry under. A binary value that is not the base64 of a published
   * message but another encoding of one is counted as that message, and reported as a
   * representation difference (observed), not as corruption.
   */
  private representationKey(
    entry: Entry,
    published: Map<string, number>,
    add: (v: ModelViolation) => void,
  ): string | undefined {
    const { value } = entry;
    const encoded =
      value.kind === 'binary'
        ? value.encoded
        : value.kind === 'opaque'
          ? (value.raw as { binary?: unknown }).binary
          : undefined;
    const direct = value.kind === 'opaque' ? undefined : valueKey(value);
    if (direct !== undefined && published.has(direct)) return direct;
    if (typeof encoded === 'string') {
      for (const bytes of otherEncodings(encoded)) {
        const key = valueKey({ kind: 'binary', bytes });
        if (!published.has(key)) continue;
        add({
          rule: 'value.binary-base64',
          message: `(page ${entry.page}, number ${entry.n}) holds a published binary message, but not as standard base64: ${JSON.stringify(encoded.slice(0, 40))}`,
          exchangeIds: [entry.exchangeId],
        });
        return key;
      }
    }
    return direct;
  }

  private closest(value: DeliveredValue): string {
    const sameKind = this.publishes.filter((p) => p.value.kind === value.kind);
    if (value.kind !== 'text' || sameKind.length === 0) return '';
    const length = value.text.length;
    const near = sameKind
      .map((p) => p.value)
      .sort(
        (a, b) =>
          Math.abs((a as { text: string }).text.length - length) -
          Math.abs((b as { text: string }).text.length - length),
      )[0]!;
    return `; the nearest published value is ${describeValue(near)}`;
  }

  /** A message acknowledged (204) before another was sent must come first on its page. */
  private checkOrder(entries: Entry[], assigned: Map<Entry, PublishRecord>, add: (v: ModelViolation) => void): void {
    const byPage = new Map<number, Entry[]>();
    for (const entry of entries)
      if (assigned.has(entry)) byPage.set(entry.page, [...(byPage.get(entry.page) ?? []), entry]);
    for (const list of byPage.values()) {
      for (let i = 0; i < list.length; i += 1) {
        for (let j = i + 1; j < list.length; j += 1) {
          const earlier = assigned.get(list[i]!)!;
          const later = assigned.get(list[j]!)!;
          if (later.end !== undefined && later.outcome === 'acked' && later.end < earlier.start) {
            add({
              rule: 'stream.publish-order',
              message: `${describeValue(later.value)} was acknowledged (204) before ${describeValue(earlier.value)} was sent, yet got number ${list[j]!.n} after ${list[i]!.n}`,
              exchangeIds: [later.exchangeId ?? 0, earlier.exchangeId ?? 0, list[i]!.exchangeId].filter((id) => id > 0),
            });
            return;
          }
        }
      }
    }
  }

  /**
   * Each subscriber, from its first answer on, receives every message published after that
   * answer (up to the sentinel), unless a discontinuity told it that it missed some.
   */
  private checkLoss(unmatched: Entry[], keys: Map<string, string>, add: (v: ModelViolation) => void): void {
    const end = this.sentinel?.start ?? Number.POSITIVE_INFINITY;
    for (const subscriber of this.subscriberIds) {
      const joinedAt = this.joined.get(subscriber);
      const own = this.receipts.filter((r) => r.subscriber === subscriber);
      if (this.sentinel && !this.finished.has(subscriber)) {
        add({
          rule: 'stream.no-loss',
          message: `${subscriber} never received the last message published (${describeValue(this.sentinel.value)})`,
          exchangeIds: [this.sentinel.exchangeId ?? 0, ...own.slice(-2).map((r) => r.exchangeId)].filter(
            (id) => id > 0,
          ),
        });
        continue;
      }
      if (joinedAt === undefined) continue;
      const excusedUntil = this.excusedUntil(own);
      const required = this.publishes.filter(
        (p) =>
          p.outcome === 'acked' &&
          p.start > joinedAt &&
          p.start > excusedUntil &&
          p.start <= end &&
          p.label !== 'nudge',
      );
      const received = new Map<string, number>();
      const seenKeys = new Set<string>();
      for (const receipt of own) {
        for (const element of receipt.elements) {
          if (element.kind !== 'item') continue;
          const at = `${element.page}:${element.n}`;
          if (seenKeys.has(at)) continue;
          seenKeys.add(at);
          const key = keys.get(at) ?? valueKey(element.value);
          received.set(key, (received.get(key) ?? 0) + 1);
        }
      }
      const opaque = own
        .flatMap((r) => r.elements)
        .filter(
          (e): e is Item => e.kind === 'item' && e.value.kind === 'opaque' && !keys.has(`${e.page}:${e.n}`),
        ).length;
      // A corrupted value stands in for the message it replaced: reported once, as corruption.
      let tolerance = opaque + unmatched.length;
      const missing: PublishRecord[] = [];
      for (const record of required) {
        const key = valueKey(record.value);
        const count = received.get(key) ?? 0;
        if (count > 0) received.set(key, count - 1);
        else if (tolerance > 0) tolerance -= 1;
        else missing.push(record);
      }
      if (missing.length > 0) {
        add({
          rule: 'stream.no-loss',
          message: `${subscriber} never received ${missing.length} message(s) published after its first answer, with no discontinuity: ${missing
            .slice(0, 3)
            .map((m) => describeValue(m.value))
            .join('; ')}`,
          exchangeIds: [
            ...missing.slice(0, 3).map((m) => m.exchangeId ?? 0),
            ...own.slice(0, 1).map((r) => r.exchangeId),
          ].filter((id) => id > 0),
        });
      }
    }
  }

  /** Until when a subscriber is excused from losses: its latest discontinuity that skips forward or changes page. */
  private excusedUntil(receipts: Receipt[]): number {
    let until = 0;
    for (const receipt of receipts) {
      for (const element of receipt.elements) {
        if (element.kind !== 'discontinuity') continue;
        const { cursor } = receipt;
        const skipsForward = cursor.n > 0 && element.page === cursor.page && element.next > cursor.n;
        const changesPage = cursor.page !== 0 && element.page !== cursor.page;
        if (receipt.stale || skipsForward) until = Math.max(until, receipt.at);
        else if (changesPage) {
          // After a reset, only what was sent before the reset may have gone with the old page. A
          // reset whose answer had not come back by this receipt may have taken effect at any
          // moment until then (its answer crosses the network too): all before the receipt may have gone.
          const started = this.resets.filter((r) => r.start < receipt.at);
          const inFlight = started.some((r) => r.end === undefined || r.end > receipt.at);
          const lastEnd = Math.max(...started.map((r) => r.end!));
          until = Math.max(until, inFlight || started.length === 0 ? receipt.at : lastEnd);
        }
      }
    }
    return until;
  }
}
