import { defineDeliverySuite } from '../reliability/delivery/suite.js';

// `npm run test:stress`: 8 publishers and 16 subscribers (8 on each of 2 topics), up to
// 200,000 messages or 4 minutes of publishing; the fault run with 5 page changes.
defineDeliverySuite({
  label: 'stress',
  keepUp: { publishers: 8, subscribers: 8, topics: 2, messages: 200_000, publishForMs: 240_000, catchUpMs: 120_000 },
  faults: { publishers: 4, subscribers: 8, topics: 2, messages: 20_000, pageChanges: 5, catchUpMs: 120_000 },
  slow: { messages: 5_000, retention: 100, holds: 5 },
});
