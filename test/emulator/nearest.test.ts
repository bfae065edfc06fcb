import { describe, expect, it } from 'vitest';
import { editDistance, nearest } from '../../emulator/nearest.js';

describe('did you mean', () => {
  it('measures edits, and names the nearest candidate only when it is a slip away', () => {
    expect([editDistance('statsu', 'status'), editDistance('', 'abc'), editDistance('same', 'same')]).toEqual([
      2, 3, 0,
    ]);
    expect(nearest('tpoic', ['topic', 'topicPrefix', 'cache'])).toBe('topic');
    expect(nearest('COMPAT', ['standard', 'compact'])).toBe('compact');
    expect(nearest('zzzzzzzz', ['status', 'drop'])).toBeUndefined();
  });
});
