import { describe, expect, it } from 'vitest';
import { cpusOfAffinityList } from '../../bench/cpu-pinning.js';

// The bench pins its server and load generator to the first two CPUs this process may use, read
// from taskset's affinity list: a container may be given CPUs other than 0 and 1.

describe('cpusOfAffinityList', () => {
  it('reads single CPUs and ranges, in order', () => {
    expect(cpusOfAffinityList("pid 12693's current affinity list: 0,1\n")).toEqual([0, 1]);
    expect(cpusOfAffinityList("pid 7's current affinity list: 2-4,7")).toEqual([2, 3, 4, 7]);
    expect(cpusOfAffinityList("pid 7's current affinity list: 3")).toEqual([3]);
  });

  it('refuses what is not an affinity list, naming it', () => {
    expect(() => cpusOfAffinityList("pid 7's current affinity mask: ff")).toThrow(/not an affinity list: 'pid 7/);
    expect(() => cpusOfAffinityList('taskset: failed to get pid 7')).toThrow(/not an affinity list/);
  });
});
