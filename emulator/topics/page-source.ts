import type { Clock } from '../clock.js';

// Pages identify one instance of a topic. Later pages are greater than earlier ones but
// not consecutive; the provider's example page looks like epoch seconds, so ours are too,
// bumped when two instances would otherwise share a second.
export class PageSource {
  private last = 0;

  constructor(private readonly clock: Clock) {}

  next(): number {
    this.last = Math.max(this.last + 1, Math.floor(this.clock.now() / 1000));
    return this.last;
  }
}
