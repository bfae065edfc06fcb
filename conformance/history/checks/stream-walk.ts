import type { HistoryElement, ReadEvent } from '../events.js';
import type { HistoryIndex } from '../model.js';

// What the per-subscriber checks share: each subscriber's elements in order, with the last item
// it had and whether a discontinuity came since.

export interface Step {
  subscriber: string;
  element: HistoryElement;
  read: ReadEvent;
  /** The last item before this element, and the answer it came in. */
  last: { n: number; page: number; read: ReadEvent } | undefined;
  /** A discontinuity came after `last` (and before this element). */
  announced: { last: number; next: number; page: number; read: ReadEvent } | undefined;
}

export function* walkStreams(index: HistoryIndex): Generator<Step> {
  for (const [subscriber, stream] of index.streams) {
    let last: Step['last'];
    let announced: Step['announced'];
    for (const { element, read } of stream) {
      yield { subscriber, element, read, last, announced };
      if (element.kind === 'discontinuity') announced = { ...element, read };
      else {
        last = { n: element.n, page: element.page, read };
        announced = undefined;
      }
    }
  }
}

export const readsOf = (...reads: (ReadEvent | undefined)[]): ReadEvent[] =>
  reads.filter((r, i, all): r is ReadEvent => r !== undefined && all.indexOf(r) === i);
