import { defineDeliverySuite } from './delivery/suite.js';

// Bounded for `npm test` (about 15 s on two shared cores); the long run is
// test/stress/delivery.stress.test.ts (8 publishers, 16 subscribers, 200,000 messages).
defineDeliverySuite({
  label: 'bounded',
  keepUp: { publishers: 4, subscribers: 4, topics: 2, messages: 8_000 },
  faults: { publishers: 2, subscribers: 4, topics: 2, messages: 2_000, pageChanges: 2 },
  slow: { messages: 300, retention: 50, holds: 2 },
});
