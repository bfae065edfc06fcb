// One fresh fake server (and a client pointed at it) per test, closed in teardown.

import { afterEach, beforeEach } from 'vitest';
import { TopicsClient } from '../../client/index.js';
import { startFakeServer, type FakeServer } from './fake-server.js';

export interface FakeServerFixture {
  readonly server: FakeServer;
  /** Token `k`, in the Authorization header. */
  readonly client: TopicsClient;
}

export function useFakeServer(): FakeServerFixture {
  const fixture = {} as { server: FakeServer; client: TopicsClient };
  beforeEach(async () => {
    fixture.server = await startFakeServer();
    fixture.client = new TopicsClient({ baseUrl: fixture.server.url, token: 'k' });
  });
  afterEach(() => fixture.server.close());
  return fixture;
}
