import type { ClientList, JournalEntry, RequestList } from '../../dashboard/journal.js';
import { facts } from '../judge/records.js';

// Answers of listRequests and listClients as the request journal gives them (RequestList,
// ClientList in openapi/control.yaml where the journal is part of the emulator), for the
// dashboard's Requests and Clients views.

const AT = Date.UTC(2026, 0, 1, 12, 0, 0);

function entry(id: number, overrides: Partial<JournalEntry>): JournalEntry {
  return {
    id,
    ...facts({
      operation: 'publish',
      method: 'POST',
      path: '/topics/default-cache/orders',
      at: AT + id * 1000,
      durationMs: 1.5,
      cache: 'default-cache',
      topic: 'orders',
      client: 'token:reader-1',
      status: 204,
      ...overrides,
    }),
  };
}

export const throttledPoll = entry(3, {
  operation: 'subscribe',
  method: 'GET',
  cursor: { sequenceNumber: 2, sequencePage: 7 },
  status: 429,
  code: 'limit_exceeded',
  retryAfterSeconds: 1,
  decidedBy: { kind: 'fault', ruleId: 'f1' },
});
export const retriedAtOnce = entry(4, {
  operation: 'subscribe',
  method: 'GET',
  cursor: { sequenceNumber: 2, sequencePage: 7 },
  status: 200,
  items: [2],
  page: 7,
});

export const requestList: RequestList = {
  entries: [retriedAtOnce, throttledPoll, entry(2, { client: 'key:#0123456789ab' }), entry(1, {})],
  journalled: 4,
  evicted: 0,
  capacity: 10_000,
};

export const clientList: ClientList = {
  clients: [
    {
      client: 'token:reader-1',
      firstSeen: AT + 1000,
      lastSeen: AT + 4000,
      counters: {
        requests: 3,
        publishes: 1,
        polls: 2,
        errors: 1,
        throttled: 1,
        unauthorized: 0,
        dropped: 0,
        clientGone: 0,
        itemsReceived: 1,
        discontinuities: 0,
      },
      subscriptions: [
        {
          id: 1,
          cache: 'default-cache',
          topic: 'orders',
          polls: 2,
          firstRequest: 3,
          lastRequest: 4,
          itemsReceived: 1,
          discontinuities: 0,
        },
      ],
      rules: [
        { rule: 'respects-retry-after', level: 'contract', occasions: 1, violations: 1 },
        { rule: 'resumes-from-last-item', level: 'contract', occasions: 0, violations: 0 },
      ],
      violations: [
        {
          rule: 'respects-retry-after',
          level: 'contract',
          sentence: 'A client that is throttled waits for Retry-After before it tries again.',
          source: 'spec/topics-http-api.md',
          message: 'polled again 0 ms after a 429 with Retry-After: 1',
          requests: [throttledPoll, retriedAtOnce],
        },
      ],
    },
  ],
};
