import { defineDeliverySuite } from './delivery/suite.js';

// Bounded for `npm test` (about 10 s on two shared cores); the long run is
// test/stress/delivery.test.ts (8 publishers, 16 subscribers, up to 200,000 messages).
defineDeliverySuite({
  label: 'bounded',
  keepUp: { publishers: 4, subscribers: 4, topics: 2, messages: 4_000 },
  faults: { publishers: 2, subscribers: 4, topics: 2, messages: 1_000, pageChanges: 2 },
  slow: { messages: 300, retention: 50, holds: 2 },
});
