import type { Clock as ClockView, SnapshotClock } from '../openapi/generated/control-types.js';

// The emulator's one source of time. Token expiry, long-poll timeouts, pages and
// rate-limit windows all read it, so a test can move time instead of waiting for it.
//
// Two modes: `real` (wall clock plus an offset) and `virtual` (frozen until advanced).
// Timers are kept here, not only in Node, so that moving the clock fires every timer
// that became due, in order, at once.

export interface ClockTimer {
  cancel(): void;
}

export type ClockState = ClockView;

/** The clock as plain data (a snapshot's): a virtual reading, or the real clock's offset. */
export type SavedClock = SnapshotClock;

interface TimerRecord extends ClockTimer {
  due: number;
  fn: () => void;
  node: NodeJS.Timeout | undefined;
}

/** The longest delay Node's timers hold. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export class Clock {
  private mode: ClockView['mode'] = 'real';
  private offsetMs = 0;
  private virtualNowMs = 0;
  private readonly timers = new Set<TimerRecord>();
  /**
   * Hears a timer callback that threw (the app logs it): the clock fires the other due timers
   * and goes on, whether it fired from Node's timer or from a request moving the clock.
   */
  onTimerError: (error: unknown) => void = (error) =>
    process.emitWarning(`a clock timer failed: ${(error as Error)?.message ?? String(error)}`);

  now(): number {
    return this.mode === 'virtual' ? this.virtualNowMs : Date.now() + this.offsetMs;
  }

  /** Runs `fn` once the clock reaches now + delayMs (real time, or when advanced past it). */
  schedule(delayMs: number, fn: () => void): ClockTimer {
    return this.scheduleAt(this.now() + delayMs, fn);
  }

  /** Runs `fn` once the clock reaches `epochMs`: for callers that show the time they schedule for. */
  scheduleAt(epochMs: number, fn: () => void): ClockTimer {
    const record: TimerRecord = {
      due: epochMs,
      fn,
      node: undefined,
      cancel: () => {
        if (record.node) clearTimeout(record.node);
        this.timers.delete(record);
      },
    };
    this.timers.add(record);
    if (this.mode === 'real') this.arm(record);
    return record;
  }

  /** Moves the clock forward; timers that become due fire now, earliest first. */
  advance(ms: number): void {
    if (this.mode === 'virtual') this.virtualNowMs += ms;
    else this.offsetMs += ms;
    this.rearm();
  }

  /** Sets the clock to an absolute time and freezes it there (virtual mode). */
  set(epochMs: number): void {
    this.mode = 'virtual';
    this.virtualNowMs = epochMs;
    this.rearm();
  }

  /** Freezes the clock at its current reading; it then moves only when advanced or set. */
  freeze(): void {
    if (this.mode === 'virtual') return;
    this.virtualNowMs = this.now();
    this.mode = 'virtual';
    this.rearm();
  }

  /** Back to the wall clock, with no offset. */
  useRealTime(): void {
    this.mode = 'real';
    this.offsetMs = 0;
    this.rearm();
  }

  save(): SavedClock {
    return this.mode === 'virtual'
      ? { mode: 'virtual', nowMs: this.virtualNowMs }
      : { mode: 'real', offsetMs: this.offsetMs };
  }

  /** Back to a saved clock; timers that become due fire now, as when the clock is moved. */
  restore(saved: SavedClock): void {
    if (saved.mode === 'virtual') return this.set(saved.nowMs);
    this.mode = 'real';
    this.offsetMs = saved.offsetMs;
    this.rearm();
  }

  state(): ClockState {
    const nowMs = this.now();
    return { mode: this.mode, now: new Date(nowMs).toISOString(), nowMs, pendingTimers: this.timers.size };
  }

  private arm(record: TimerRecord): void {
    // Node holds a timer for at most 2^31 - 1 ms (24.8 days) and fires a longer one at once: a
    // longer wait is armed in steps, each re-armed until the timer is due.
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, record.due - this.now()));
    record.node = setTimeout(() => this.fire(record), delay);
    // Pending long-poll timers must not keep a stopping process alive.
    record.node.unref();
  }

  private fire(record: TimerRecord): void {
    if (!this.timers.has(record)) return;
    if (record.due > this.now()) return this.arm(record);
    this.timers.delete(record);
    try {
      record.fn();
    } catch (error) {
      this.onTimerError(error);
    }
  }

  private rearm(): void {
    const now = this.now();
    const due: TimerRecord[] = [];
    for (const record of this.timers) {
      if (record.node) clearTimeout(record.node);
      record.node = undefined;
      if (record.due <= now) due.push(record);
      else if (this.mode === 'real') this.arm(record);
    }
    due.sort((a, b) => a.due - b.due);
    for (const record of due) this.fire(record);
  }
}
