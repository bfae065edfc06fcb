// Whether a client is still recovering from a step of the gauntlet when the exam's time is up:
// the last step it met failed a request after its last success. The exam then waits, up to
// PATIENCE_MS from that failure, for a request that succeeds, so that a correct client that waits
// a few seconds after an error (within what Retry-After and the SDKs' back-off allow) is judged
// as one that retries at once.

/** How long after its last failure a client may take to carry on. */
export const PATIENCE_MS = 5000;

type Ending<T> = Promise<T>;

export class RecoveryWatch {
  private lastFailure = -Infinity;
  private lastSuccess = -Infinity;
  private wake: (() => void) | undefined;

  /** A request met a step (at the clock's ms). */
  failed(at: number): void {
    this.lastFailure = Math.max(this.lastFailure, at);
  }

  /** A request succeeded (at the clock's ms). */
  succeeded(at: number): void {
    this.lastSuccess = Math.max(this.lastSuccess, at);
    if (this.lastSuccess > this.lastFailure) this.wake?.();
  }

  get recovering(): boolean {
    return this.lastFailure > this.lastSuccess;
  }

  /**
   * 'no wait' when nothing is pending; else 'recovered' at the first success, or 'deadline' at
   * PATIENCE_MS after the last failure, or whichever of `endings` settles first.
   */
  async awaitRecovery<T>(
    clock: { now(): number },
    endings: Ending<T>[],
  ): Promise<'no wait' | 'recovered' | 'deadline' | T> {
    if (!this.recovering) return 'no wait';
    const left = this.lastFailure + PATIENCE_MS - clock.now();
    if (left <= 0) return 'deadline';
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race<'recovered' | 'deadline' | T>([
        new Promise<'recovered'>((resolve) => (this.wake = () => resolve('recovered'))),
        new Promise<'deadline'>((resolve) => (timer = setTimeout(() => resolve('deadline'), left))),
        ...endings,
      ]);
    } finally {
      clearTimeout(timer);
      this.wake = undefined;
    }
  }
}
