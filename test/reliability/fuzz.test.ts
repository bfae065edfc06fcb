import { defineFuzzSuite } from './fuzz/suite.js';

// Bounded for `npm test`: whichever comes first, 20,000 requests or 8 s of service fuzzing,
// then 2,000 control-plane requests or 2 s. The long run is test/stress/fuzz.test.ts.
defineFuzzSuite({
  label: 'bounded',
  service: { requests: 20_000, ms: 8_000, concurrency: 48 },
  control: { requests: 2_000, ms: 2_000, concurrency: 8 },
});
