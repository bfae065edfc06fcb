import type { Redis } from 'ioredis';
import {
  isSharedChange,
  type ControlFollower,
  type SharedChange,
  type SharedControl,
} from '../control/shared-changes.js';
import { EmulatorError } from '../errors.js';
import type { FaultRule } from '../faults/rule.js';
import type { Consideration, RuleCounts, SharedFirings } from '../faults/shared-firings.js';
import type { KeyLayout } from './keys.js';
import type { Log } from '../logging.js';

// The control plane's part of a Redis store. Changes are numbered and logged (a stream trimmed
// by every reset) as they are announced, so a replica started later applies the log before it
// serves, and one that lost its connection applies what it missed: each change once, in order,
// by number. The fault rules' counters are one hash; a counted rule's request is decided by one
// script (atomic), and every change of the counters is announced so each replica shows them.
// A snapshot loaded on one replica is one change too: it seeds the counters with the saved ones.
//
// The log stays bounded: every COMPACT_EVERY changes, the replica that made the change numbered
// n replaces the log's changes up to n with the control state they led to, once it has applied
// all of them and none of its own is in flight (its state is then exactly theirs). A replica
// behind n loads that state (like a snapshot's control part), then the changes after it.

/** What the channel carries for the control plane (the store hands these over). */
export type ControlAnnouncement =
  { k: 'o'; from: string; n: number; c: unknown } | { k: 'f'; id: string; m: number; f: number; d: number };

/** Runs one of the store's scripts by name (the store counts its round trips). */
export type RunScript = (name: ControlScript, ...args: (string | number)[]) => Promise<unknown>;
export type ControlScript = 'shareChange' | 'considerFault' | 'countFault' | 'compactControl';

/** Changes logged between two compactions of the log. */
export const COMPACT_EVERY = 1000;

/** Fault rule numbers a replica takes at a time: ids stay short, and unique across replicas. */
const ID_BLOCK = 100;

interface IdBlock {
  next: number;
  last: number;
}

export class RedisSharedControl implements SharedControl, SharedFirings {
  readonly firings: SharedFirings = this;
  onCounts: ((id: string, counts: RuleCounts) => void) | undefined;
  private follower: ControlFollower | undefined;
  /** The number of the last change applied (or made) here. */
  private applied = 0;
  /** Changes made here and sent, not numbered yet. */
  private sharing = 0;
  /** The number of the last change made here. */
  private lastMade = 0;
  /** The log holds the changes after this number, as last seen here (a reset, a snapshot or a compaction). */
  private logStart = 0;
  private compacting = false;
  /** Announcements held while the log is read (every one, until the first `follow`). */
  private held: ControlAnnouncement[] | undefined = [];
  private catching: Promise<void> | undefined;
  private ids: IdBlock | undefined;
  private spare: IdBlock | undefined;
  private reserving = false;
  /** The numbers of the rules the last snapshot loaded: none is handed out here. */
  private restoredIds: ReadonlySet<number> = new Set();

  constructor(
    private readonly command: Redis,
    private readonly keys: KeyLayout,
    private readonly replica: string,
    private readonly run: RunScript,
    private readonly log: Log,
  ) {}

  share(change: SharedChange): void {
    const { control, controlNumber, faultCounts, faultIds, channel } = this.keys;
    this.passRestoredIds(change);
    this.sharing += 1;
    this.run(
      'shareChange',
      control,
      controlNumber,
      faultCounts,
      faultIds,
      this.keys.controlBase,
      channel,
      this.replica,
      JSON.stringify(change),
    ).then(
      (n) => {
        this.sharing -= 1;
        this.lastMade = Math.max(this.lastMade, Number(n));
        this.compactWhenDue();
      },
      (error: Error) => {
        this.sharing -= 1;
        this.log.warn({ err: error.message }, 'redis store: sharing a change failed');
      },
    );
  }

  async follow(follower: ControlFollower): Promise<void> {
    this.follower = follower;
    this.ids ??= await this.reserve();
    await this.catchUp();
  }

  /** The store is in step with Redis again (after a reconnect): apply what was missed meanwhile. */
  resume(): void {
    if (this.follower) this.catchUp().catch(() => undefined);
  }

  /** An announcement from the channel, in Redis's order. */
  announced(a: ControlAnnouncement): void {
    if (this.held) {
      this.held.push(a);
      return;
    }
    if (a.k === 'f') return this.onCounts?.(a.id, { matched: a.m, fired: a.f, delivered: a.d });
    if (a.n <= this.applied) return;
    if (a.n > this.applied + 1) {
      // Some were missed (a lost connection): the log has them, and this one.
      this.held = [];
      this.catchUp().catch(() => undefined);
      return;
    }
    this.take(a.n, a.from, a.c);
  }

  nextId(): string {
    // A restored rule's number is skipped: bounded, each turn takes a number.
    for (;;) {
      const n = this.nextNumber();
      if (!this.restoredIds.has(n)) return `f${n}`;
    }
  }

  consider(rule: FaultRule, draw: boolean): Promise<Consideration> {
    const { skip, count, afterItems } = rule.rule;
    const args = [rule.id, skip ?? 0, count ?? -1, afterItems ?? -1, draw ? 1 : 0, this.keys.channel];
    return this.run('considerFault', this.keys.faultCounts, ...args).then(
      (answer) => {
        const [outcome, matched, fired, delivered] = answer as [Consideration['outcome'], number, number, number];
        return { outcome, matched, fired, delivered };
      },
      (error: Error) => {
        // Out of reach: the rule does not fire, rather than fire more often than its count.
        this.log.warn({ fault: rule.id, err: error.message }, 'redis store: a fault rule could not be counted');
        return { outcome: 'refused', matched: rule.matched, fired: rule.fired, delivered: rule.delivered };
      },
    );
  }

  count(rule: FaultRule, matched: number, fired: number, delivered: number): void {
    const args = [rule.id, matched, fired, delivered, this.keys.channel];
    this.run('countFault', this.keys.faultCounts, ...args).then(
      (answer) => {
        const [m, f, d] = answer as [number, number, number];
        this.onCounts?.(rule.id, { matched: m, fired: f, delivered: d });
      },
      (error: Error) => this.log.warn({ fault: rule.id, err: error.message }, 'redis store: counting a fault failed'),
    );
  }

  /** The next number of this replica's block, taking the next block ahead of time; throws 503 when none is left yet. */
  private nextNumber(): number {
    if (!this.ids || this.ids.next > this.ids.last) {
      if (!this.spare)
        throw new EmulatorError('service_unavailable', 'No fault rule id is free yet (the store is slow): try again.', {
          'retry-after': '1',
        });
      this.ids = this.spare;
      this.spare = undefined;
    }
    const n = this.ids.next++;
    if (!this.spare && !this.reserving && this.ids.last - n < ID_BLOCK / 2) {
      this.reserving = true;
      this.reserve()
        .then((block) => (this.spare = block))
        .catch((error: Error) => this.log.warn({ err: error.message }, 'redis store: reserving fault ids failed'))
        .finally(() => (this.reserving = false));
    }
    return n;
  }

  // A snapshot's rules keep their ids: this replica's blocks (taken before the store moved the
  // ids past them, blocks taken later start past them) skip them.
  private passRestoredIds(change: SharedChange): void {
    if (change.op === 'restoreControl')
      this.restoredIds = new Set(change.control.faults.map(({ id }) => Number(id.slice(1))));
  }

  private reserve(): Promise<IdBlock> {
    return this.command.incrby(this.keys.faultIds, ID_BLOCK).then((last) => ({ next: last - ID_BLOCK + 1, last }));
  }

  // Reads the log after the last change applied here, its number and the rules' counters at one
  // instant (MULTI), applies them, then what was announced meanwhile (skipped by number if logged).
  private catchUp(): Promise<void> {
    return (this.catching ??= (async () => {
      this.held ??= [];
      try {
        const { control, controlNumber, controlBase, faultCounts } = this.keys;
        const answers = await this.command
          .multi()
          .get(controlNumber)
          .hmget(controlBase, 'n', 'c')
          .xrange(control, this.applied > 0 ? `${this.applied + 1}-0` : '-', '+')
          .hgetall(faultCounts)
          .exec();
        const [[, number], [, [baseNumber, base]], [, entries], [, counts]] = answers as [unknown, unknown][] as [
          [unknown, string | null],
          [unknown, [string | null, string | null]],
          [unknown, [string, string[]][]],
          [unknown, Record<string, string>],
        ];
        // Redis lost the log (restarted empty): the numbers start again.
        if (Number(number ?? 0) < this.applied) this.applied = 0;
        this.logStart = Number(baseNumber ?? 0);
        // The log was compacted past what was applied here: the state it led to first.
        if (base !== null && this.logStart > this.applied) this.take(this.logStart, '', JSON.parse(base));
        for (const [id, fields] of entries) {
          const field = (name: string) => fields[fields.indexOf(name) + 1]!;
          this.take(Number(id.split('-')[0]), field('r'), JSON.parse(field('c')));
        }
        this.applied = Math.max(this.applied, Number(number ?? 0));
        for (const [id, ruleCounts] of countsByRule(counts)) this.onCounts?.(id, ruleCounts);
        const held = this.held ?? [];
        this.held = undefined;
        for (const a of held) this.announced(a);
        this.compactWhenDue();
      } catch (error) {
        this.log.warn({ err: (error as Error).message }, 'redis store: reading the control log failed');
        throw error;
      } finally {
        this.catching = undefined;
      }
    })());
  }

  /** Change number `n`: applied here unless this replica made it (it applied it then). */
  private take(n: number, from: string, change: unknown): void {
    if (n <= this.applied) return;
    this.applied = n;
    if (!isSharedChange(change)) return;
    // A reset and a snapshot start the log again with themselves.
    if (change.op === 'reset' || change.op === 'restoreControl') this.logStart = n - 1;
    if (from === this.replica) return this.compactWhenDue();
    this.passRestoredIds(change);
    this.follower?.apply(change);
  }

  /**
   * Compacts the log up to this replica's last change once COMPACT_EVERY have been logged since
   * it last started, when that change is the last one applied here and none of this replica's is
   * in flight: the state here is then exactly what the changes up to it led to.
   */
  private compactWhenDue(): void {
    const n = this.lastMade;
    if (this.compacting || this.sharing > 0 || this.held || !this.follower) return;
    if (this.applied !== n || n - this.logStart < COMPACT_EVERY) return;
    // The state is read now, while it is exactly the changes' (not a turn later). Called from the
    // channel's handler: a failure is logged, never thrown there.
    const failed = (error: unknown) =>
      this.log.warn({ err: (error as Error).message }, 'redis store: compacting the control log failed');
    let compacted: string;
    try {
      compacted = JSON.stringify({ op: 'compacted', control: this.follower.current() } satisfies SharedChange);
    } catch (error) {
      return failed(error);
    }
    this.compacting = true;
    const { control, controlBase } = this.keys;
    this.run('compactControl', control, controlBase, n, compacted)
      .then((start) => (this.logStart = Math.max(this.logStart, Number(start))))
      .catch(failed)
      .finally(() => (this.compacting = false));
  }
}

/** The counters hash (`<id>:m|f|d`) as each rule's counts. */
function countsByRule(hash: Record<string, string>): Map<string, RuleCounts> {
  const rules = new Map<string, { matched: number; fired: number; delivered: number }>();
  for (const [field, value] of Object.entries(hash)) {
    const at = field.lastIndexOf(':');
    const id = field.slice(0, at);
    const counts = rules.get(id) ?? { matched: 0, fired: 0, delivered: 0 };
    const which = field.slice(at + 1);
    if (which === 'm') counts.matched = Number(value);
    else if (which === 'f') counts.fired = Number(value);
    else if (which === 'd') counts.delivered = Number(value);
    rules.set(id, counts);
  }
  return rules;
}
