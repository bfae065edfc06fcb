import type { Clock } from '../clock.js';

// Operations counted in fixed one-second windows of the emulator's clock, so a frozen clock
// holds a window open and advancing it by a second opens the next one.

export class RateWindow {
  private startMs = Number.NEGATIVE_INFINITY;
  private count = 0;

  constructor(
    private readonly clock: Clock,
    private readonly lengthMs = 1000,
  ) {}

  /** Operations in the current window (rolling over to a new window when it has ended). */
  get operations(): number {
    this.roll();
    return this.count;
  }

  get startedAt(): number {
    this.roll();
    return this.startMs;
  }

  add(n: number): void {
    this.roll();
    this.count += n;
  }

  /** Whole seconds until the window ends (at least 1): the Retry-After of a refusal. */
  retryAfterSeconds(): number {
    this.roll();
    return Math.max(1, Math.ceil((this.startMs + this.lengthMs - this.clock.now()) / 1000));
  }

  reset(): void {
    this.startMs = Number.NEGATIVE_INFINITY;
    this.count = 0;
  }

  private roll(): void {
    const now = this.clock.now();
    if (now >= this.startMs + this.lengthMs || now < this.startMs) {
      this.startMs = now - (now % this.lengthMs);
      this.count = 0;
    }
  }
}
