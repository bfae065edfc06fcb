// A fixed-capacity buffer of a topic's most recent messages, addressed by sequence
// number. Numbers in it are contiguous, so a lookup is arithmetic, not a search.

export class RetentionBuffer<T> {
  private readonly slots: (T | undefined)[];
  private start = 0; // slot of the oldest message
  private count = 0;
  private oldestSeq = 1;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('retention capacity must be an integer >= 1');
    this.slots = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Number of the oldest retained message; equals `nextSeq` when empty. */
  get firstSeq(): number {
    return this.oldestSeq;
  }

  /** Appends the message numbered `firstSeq + size`, evicting the oldest when full. */
  push(value: T): void {
    if (this.count < this.capacity) {
      this.slots[(this.start + this.count) % this.capacity] = value;
      this.count += 1;
      return;
    }
    this.slots[this.start] = value;
    this.start = (this.start + 1) % this.capacity;
    this.oldestSeq += 1;
  }

  /** Up to `max` retained messages from number `seq` on (seq must be retained). */
  slice(seq: number, max: number): T[] {
    const offset = seq - this.oldestSeq;
    const n = Math.min(max, this.count - offset);
    const out: T[] = new Array<T>(Math.max(0, n));
    for (let i = 0; i < n; i++) out[i] = this.slots[(this.start + offset + i) % this.capacity] as T;
    return out;
  }

  /** Empties the buffer; the next message pushed is numbered `nextSeq`. */
  clear(nextSeq: number): void {
    this.slots.fill(undefined);
    this.start = 0;
    this.count = 0;
    this.oldestSeq = nextSeq;
  }
}
