/** The parts of a subscribe response the bench reads; the same shape from the emulator and B-ref. */
export interface SubscriberPage {
  items?: Array<{
    item?: { sequence_page: number; topic_sequence_number: number; value?: { text?: string } };
    discontinuity?: { new_topic_sequence: number; new_sequence_page: number };
  }>;
}

/** Where a subscriber stands: the cursor it sends next. */
export interface Cursor {
  sequenceNumber: number;
  sequencePage: number;
}

export function subscribePath(cacheName: string, topicName: string, cursor: Cursor): string {
  return `/topics/${encodeURIComponent(cacheName)}/${encodeURIComponent(topicName)}?sequence_number=${cursor.sequenceNumber}&sequence_page=${cursor.sequencePage}`;
}

/** Advance `cursor` past a page and return the texts it delivered, in order. */
export function readPage(page: SubscriberPage, cursor: Cursor): string[] {
  const texts: string[] = [];
  for (const element of page.items ?? []) {
    if (element.discontinuity !== undefined) {
      cursor.sequenceNumber = element.discontinuity.new_topic_sequence;
      cursor.sequencePage = element.discontinuity.new_sequence_page;
    }
    if (element.item !== undefined) {
      cursor.sequenceNumber = element.item.topic_sequence_number + 1;
      cursor.sequencePage = element.item.sequence_page;
      texts.push(element.item.value?.text ?? '');
    }
  }
  return texts;
}
