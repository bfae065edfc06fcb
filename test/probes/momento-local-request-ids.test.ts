import { describe, expect, it } from 'vitest';
import { MomentoLocalFaults } from '../../emulator/faults/momento-local.js';

// Probe: momento-local's counts per request id were all forgotten once 10,000 ids had been seen
// (a long suite's running test lost its count mid-way), and ids were cut to 256 characters, so
// two long ids shared one count. Now the least recently used id is forgotten, and a longer id is
// refused naming the key.

const metadata = (requestId: string) => (key: string) =>
  ({ 'request-id': requestId, 'return-error': 'unavailable', 'error-rpcs': 'topic-publish', 'error-count': '2' })[key];

const fails = (faults: MomentoLocalFaults, requestId: string) =>
  faults.decide(metadata(requestId), 'publish').effect?.error !== undefined;

describe("momento-local's counts per request id", () => {
  it('keep a recent id counting past 10,000 ids: the least recently used is forgotten, not all', () => {
    const faults = new MomentoLocalFaults();
    for (let i = 0; i < 9_999; i++) fails(faults, `finished-${i}`);
    expect(fails(faults, 'running')).toBe(true); // its first of two errors; 10,000 ids now
    fails(faults, 'one-more'); // the 10,001st id: forgets finished-0, not 'running'
    expect(fails(faults, 'running')).toBe(true); // its second error
    expect(fails(faults, 'running')).toBe(false); // through, as error-count 2 says
    expect(fails(faults, 'finished-0')).toBe(true); // forgotten: it starts over
  });

  it('refuse an id longer than 256 characters, naming the key, instead of sharing a count', () => {
    const faults = new MomentoLocalFaults();
    expect(() => faults.decide(metadata(`${'x'.repeat(256)}a`), 'publish')).toThrow(
      /momento-local metadata 'request-id: x+' is longer than 256 characters/,
    );
    expect(fails(faults, 'x'.repeat(256))).toBe(true);
  });
});
