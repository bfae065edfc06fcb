import { defineFuzzSuite } from '../reliability/fuzz/suite.js';

// `npm run test:stress`: whichever comes first, 200,000 requests or 3 minutes of service
// fuzzing, then 20,000 control-plane requests or 30 s.
defineFuzzSuite({
  label: 'stress',
  service: { requests: 200_000, ms: 180_000, concurrency: 64 },
  control: { requests: 20_000, ms: 30_000, concurrency: 8 },
});
