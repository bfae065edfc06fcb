import { describe, expect, it } from 'vitest';
import { median, roundRatios } from '../../bench/stats.js';

describe('roundRatios', () => {
  it('pairs the rounds by index and gives the spread of ours over the baseline', () => {
    const spread = roundRatios([80, 60, 90], [100, 100, 100])!;
    expect(spread.min).toBeCloseTo(0.6);
    expect(spread.median).toBeCloseTo(0.8);
    expect(spread.max).toBeCloseTo(0.9);
  });

  it('is undefined when the rounds do not pair up or a baseline round measured nothing', () => {
    expect(roundRatios([], [])).toBeUndefined();
    expect(roundRatios([1, 2], [1])).toBeUndefined();
    expect(roundRatios([1, 2], [1, 0])).toBeUndefined();
  });
});

describe('median', () => {
  it('is the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});
