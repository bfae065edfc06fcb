import { describe, expect, it } from 'vitest';
import {
  addMarker,
  addPageChange,
  addPublished,
  addRetained,
  emptyFeed,
  FEED_ROWS,
  type Feed,
} from '../../dashboard/feed.js';
import { SseParser } from '../../dashboard/sse-parser.js';

// The dashboard's pure parts: the live feed's markers and the SSE parser it reads the stream with.

const message = (page: number, sequenceNumber: number) => ({
  at: 0,
  cache: 'c',
  topic: 't',
  page,
  sequenceNumber,
  value: { text: `m${sequenceNumber}` },
  size: 2,
  truncated: false,
});
const shape = (feed: Feed) =>
  feed.rows.map((r) => (r.kind === 'message' ? `#${r.sequenceNumber}@${r.page}` : `${r.tone}: ${r.text}`)).reverse();

describe('the live feed', () => {
  const retained = (page: number, numbers: number[], next = (numbers.at(-1) ?? 0) + 1) => ({
    cache: 'c',
    topic: 't',
    page,
    nextSequenceNumber: next,
    messages: numbers.map((n) => ({ ...message(page, n), at: undefined })),
  });

  it('shows the retained messages under the live ones, each once, and continues from them', () => {
    // #3 arrived live before the retained list (which has it too) was answered.
    let feed = addRetained(addPublished(emptyFeed, message(7, 3)), retained(7, [1, 2, 3]));
    expect(shape(feed)).toEqual(['#1@7', '#2@7', '#3@7']);
    expect(feed.rows.map((r) => r.kind === 'message' && r.at)).toEqual([0, undefined, undefined]);
    feed = addPublished(addPublished(feed, message(7, 3)), message(7, 4));
    expect(shape(feed)).toEqual(['#1@7', '#2@7', '#3@7', '#4@7']);
    // Read again (a reconnect): the same rows, not twice.
    expect(shape(addRetained(feed, retained(7, [2, 3, 4])))).toEqual(['#2@7', '#3@7', '#4@7']);
  });

  it('keeps what an older page showed below the retained messages, and ignores a topic not there', () => {
    const old = addPublished(emptyFeed, message(5, 9));
    const feed = addRetained(old, retained(7, [1]));
    expect(shape(feed)).toEqual(['#9@5', '#1@7']);
    expect(shape(addPublished(feed, message(7, 2)))).toEqual(['#9@5', '#1@7', '#2@7']);
    expect(addRetained(old, { ...retained(7, []), page: null, nextSequenceNumber: 1 })).toBe(old);
    // Nothing retained yet on page 7: its first message follows without a jump marker.
    expect(shape(addPublished(addRetained(emptyFeed, retained(7, [])), message(7, 1)))).toEqual(['#1@7']);
  });

  it('lists messages newest first, with no marker while numbering is continuous', () => {
    const feed = [1, 2, 3].reduce((f, n) => addPublished(f, message(7, n)), emptyFeed);
    expect(shape(feed)).toEqual(['#1@7', '#2@7', '#3@7']);
    expect(feed.rows[0]).toMatchObject({ kind: 'message', sequenceNumber: 3 });
  });

  it('marks a jump in numbering, and a page boundary between messages of two pages', () => {
    let feed = addPublished(addPublished(emptyFeed, message(7, 1)), message(7, 4));
    feed = addPublished(feed, message(9, 1));
    expect(shape(feed)).toEqual([
      '#1@7',
      'discontinuity: Discontinuity: #1 then #4 on page 7',
      '#4@7',
      'page: Page boundary: page 7 ended at #4; page 9 starts at #1',
      '#1@9',
    ]);
  });

  it('marks a page change once: the new page first message follows it without a second marker', () => {
    let feed = addPublished(emptyFeed, message(7, 3));
    feed = addPageChange(feed, { at: 1, page: 8 });
    feed = addPublished(feed, message(8, 1));
    expect(shape(feed)).toEqual([
      '#3@7',
      'page: Page changed (discontinuity): page 7 ended at #3; page 8 numbers from #1',
      '#1@8',
    ]);
  });

  it('keeps a bounded number of rows, and markers keep the position', () => {
    let feed = emptyFeed;
    for (let n = 1; n <= FEED_ROWS + 50; n++) feed = addPublished(feed, message(1, n));
    expect(feed.rows).toHaveLength(FEED_ROWS);
    feed = addMarker(feed, 'gap', '3 event(s) not received', 2);
    feed = addPublished(feed, message(1, FEED_ROWS + 51));
    expect(shape(feed).slice(-3)).toEqual([
      `#${FEED_ROWS + 50}@1`,
      'gap: 3 event(s) not received',
      `#${FEED_ROWS + 51}@1`,
    ]);
  });
});

describe('the SSE parser', () => {
  it('returns complete messages only, across chunk boundaries, with id, event, data and retry', () => {
    const parser = new SseParser();
    expect(parser.push('retry: 1500\n\nid: 1\nevent: hel')).toEqual([]);
    expect(parser.retryMs).toBe(1500);
    expect(
      parser.push('lo\ndata: {"a":1}\n\n: heartbeat\n\nid: 2\r\nevent: gap\r\ndata: {"dropped":3}\r\n\r\n'),
    ).toEqual([
      { id: '1', event: 'hello', data: '{"a":1}' },
      { id: '2', event: 'gap', data: '{"dropped":3}' },
    ]);
  });

  it('joins multi-line data and names an unnamed message "message"', () => {
    expect(new SseParser().push('data: a\ndata: b\n\n')).toEqual([{ id: undefined, event: 'message', data: 'a\nb' }]);
  });
});
