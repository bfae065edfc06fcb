// A fault's delay holds a request for real time (it slows the wire, which a virtual clock
// cannot). It is bounded by the document (at most 60 s) and abortable: the client leaving,
// the emulator resetting or closing all end it early. How many are held at once is bounded too
// (--max-waiting, as for waiting subscribers): one more is refused, not held.

export type DelayOutcome = 'elapsed' | 'client-gone' | 'cancelled';

export class Delays {
  private readonly pending = new Set<(outcome: DelayOutcome) => void>();

  constructor(
    /** The most requests held at once. */
    readonly limit = Number.POSITIVE_INFINITY,
  ) {}

  /** No room for one more hold. */
  get full(): boolean {
    return this.pending.size >= this.limit;
  }

  /** Resolves after `ms`, or early when `gone` fires or cancelAll() is called. */
  wait(
    ms: number,
    gone: { once(event: 'close', listener: () => void): unknown; off(event: 'close', listener: () => void): unknown },
  ): Promise<DelayOutcome> {
    return new Promise((resolve) => {
      const finish = (outcome: DelayOutcome) => {
        if (!this.pending.delete(finish)) return;
        clearTimeout(timer);
        gone.off('close', onGone);
        resolve(outcome);
      };
      const onGone = () => finish('client-gone');
      const timer = setTimeout(() => finish('elapsed'), ms);
      timer.unref();
      gone.once('close', onGone);
      this.pending.add(finish);
    });
  }

  get size(): number {
    return this.pending.size;
  }

  cancelAll(): void {
    for (const finish of [...this.pending]) finish('cancelled');
  }
}
