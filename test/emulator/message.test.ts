import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonString, storeMessage } from '../../emulator/topics/message.js';

// The stored element is built by concatenation around JSON.stringify of the value (the delivery
// path's cheaper form), at the first delivery: it must be exactly the JSON of the whole element,
// and the value read back must be the same before and after it is built.

const position = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });

describe('jsonString', () => {
  it('is JSON.stringify of any string: quoted as is only when nothing in it is escaped', () => {
    const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string());
    fc.assert(
      fc.property(text, (value) => {
        expect(jsonString(value)).toBe(JSON.stringify(value));
      }),
    );
    for (const value of [
      '',
      'plain',
      'a"b',
      'a\\b',
      'tab\there',
      '\u0000',
      '\u001f',
      '\u007f',
      '\ud800',
      '\udfff',
      '😀',
      '\u2028',
    ])
      expect(jsonString(value)).toBe(JSON.stringify(value));
  });
});

describe('storeMessage', () => {
  it('serialises a text message exactly as JSON.stringify of its element', () => {
    fc.assert(
      fc.property(position, position, fc.string({ unit: 'binary' }), (page, seq, text) => {
        const stored = storeMessage(page, seq, { text });
        expect(stored.value).toEqual({ text });
        expect(stored.element).toBe(
          JSON.stringify({ item: { sequence_page: page, topic_sequence_number: seq, value: { text } } }),
        );
        expect(JSON.parse(stored.element)).toEqual({
          item: { sequence_page: page, topic_sequence_number: seq, value: { text } },
        });
        expect(stored.value).toEqual({ text });
      }),
    );
  });

  it('serialises a binary message as base64 of exactly its bytes (a view into a larger buffer too)', () => {
    fc.assert(
      fc.property(position, position, fc.uint8Array(), fc.nat(8), (page, seq, bytes, offset) => {
        const backing = new Uint8Array(offset + bytes.length + 3);
        backing.set(bytes, offset);
        const view = backing.subarray(offset, offset + bytes.length);
        const stored = storeMessage(page, seq, { binary: view });
        const binary = Buffer.from(bytes).toString('base64');
        backing.fill(0xff); // the published body's bytes are not held: changing them changes nothing
        expect(stored.value).toEqual({ binary });
        expect(stored.element).toBe(
          JSON.stringify({ item: { sequence_page: page, topic_sequence_number: seq, value: { binary } } }),
        );
        expect(stored.value).toEqual({ binary });
      }),
    );
  });

  it('builds its element on first delivery and keeps it, with its page and number', () => {
    const stored = storeMessage(1, 2, { text: 'hello "world"' });
    const first = stored.element;
    expect(stored.element).toBe(first);
    expect(stored.sequenceNumber).toBe(2);
    expect(stored.page).toBe(1);
  });
});
