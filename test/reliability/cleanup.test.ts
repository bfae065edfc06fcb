import { defineCleanupSuite } from './cleanup/suite.js';

// Bounded for `npm test`; the long run is test/stress/cleanup.stress.test.ts (10,000 and 5,000).
defineCleanupSuite({ label: 'bounded', aborted: 2_000, atShutdown: 1_000 });
