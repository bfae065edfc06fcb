import type { Clock } from '../clock.js';
import { numbersExhausted } from '../errors.js';

// Pages identify one instance of a topic. Later pages are greater than earlier ones but
// not consecutive; the provider's example page looks like epoch seconds, so ours are too,
// bumped when two instances would otherwise share a second.
export class PageSource {
  private lastPage = 0;

  constructor(private readonly clock: Clock) {}

  /** The greatest page given so far. */
  get last(): number {
    return this.lastPage;
  }

  /** Pages given later are greater than `page` (a loaded topic's). */
  passed(page: number): void {
    this.lastPage = Math.max(this.lastPage, page);
  }

  next(): number {
    if (this.peek() > Number.MAX_SAFE_INTEGER) throw numbersExhausted('page');
    this.lastPage = this.peek();
    return this.lastPage;
  }

  /** The page `next()` would give, without giving it. */
  peek(): number {
    return Math.max(this.lastPage + 1, Math.floor(this.clock.now() / 1000));
  }
}
