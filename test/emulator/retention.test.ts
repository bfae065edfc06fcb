import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RetentionBuffer } from '../../emulator/topics/retention.js';

describe('RetentionBuffer', () => {
  it('keeps exactly the last `capacity` messages, addressable by number (model-based)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.oneof(fc.constant('clear' as const), fc.nat()), { maxLength: 200 }),
        (capacity, ops) => {
          const buffer = new RetentionBuffer<number>(capacity);
          let model: { seq: number; value: number }[] = [];
          let next = 1;
          for (const op of ops) {
            if (op === 'clear') {
              buffer.clear(1);
              model = [];
              next = 1;
              continue;
            }
            buffer.push(op);
            model.push({ seq: next++, value: op });
            if (model.length > capacity) model.shift();
          }
          expect(buffer.size).toBe(model.length);
          expect(buffer.firstSeq).toBe(model[0]?.seq ?? next);
          for (let i = 0; i < model.length; i++) {
            expect(buffer.slice(model[i]!.seq, 1000)).toEqual(model.slice(i).map((m) => m.value));
            expect(buffer.slice(model[i]!.seq, 2)).toEqual(model.slice(i, i + 2).map((m) => m.value));
          }
        },
      ),
    );
  });

  it('refuses a capacity below one', () => {
    expect(() => new RetentionBuffer(0)).toThrow(RangeError);
  });
});
