import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ADMIN_KEY_HEADER, adminKeyVerifier } from '../auth/admin-key.js';
import type { Clock } from '../clock.js';
import { EmulatorError } from '../errors.js';
import type { EmulatorEvents } from '../events.js';
import { openedFacts, type ExchangeFacts } from '../exchange.js';
import { TEST_ADMIN_OPERATIONS } from '../requests.js';
import type { Log } from '../logging.js';
import { listenOn } from './listen.js';
import type { Reachability } from './reachability.js';

// momento-local's test-admin port (`--enable-test-admin`, 9090 there), which the SDK's own tests
// call through their TestAdminClient: `GET /block` makes the gRPC door unreachable (its open
// streams and calls drop, new connections are refused, gRPC-web answers UNAVAILABLE), `GET
// /unblock` restores it. Each answers 200 `{"blocked": true|false}`; anything else is 404. With
// an admin key it is needed in X-Emulator-Admin-Key, as on the control plane. A block or unblock
// that was served is journalled as a control-plane request (`testAdminBlock`, `testAdminUnblock`),
// so the dashboard's journal and `GET /_emulator/requests` show when the door was unreachable.

export interface TestAdminPort {
  port: number;
  close(): Promise<void>;
}

/** A served block or unblock as the journal records a control-plane request (the admin key never kept). */
function journalFacts(operation: string, path: string, at: number, request: IncomingMessage): ExchangeFacts {
  const facts = openedFacts({
    protocol: 'http',
    plane: 'control',
    operation,
    method: 'GET',
    path,
    at,
    connectionId: 0,
    cache: null,
    topic: null,
    cursor: null,
    credentialPlace: request.headers[ADMIN_KEY_HEADER] === undefined ? 'none' : 'header',
  });
  facts.status = 200;
  return facts;
}

export async function startTestAdmin(
  host: string,
  port: number,
  reachability: Reachability,
  options: { adminKey: string | undefined; log: Log; events: EmulatorEvents; clock: Clock },
): Promise<TestAdminPort> {
  const checkKey = options.adminKey === undefined ? undefined : adminKeyVerifier(options.adminKey);
  const answer = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  };
  const served = (request: IncomingMessage, response: ServerResponse) => {
    try {
      const path = (request.url ?? '').split('?')[0];
      if (request.method !== 'GET' || (path !== '/block' && path !== '/unblock'))
        throw new EmulatorError('route_not_found', 'The test-admin port serves GET /block and GET /unblock.');
      checkKey?.(request.headers[ADMIN_KEY_HEADER]);
      if (path === '/block') reachability.block();
      else reachability.unblock();
      options.log.info(`test-admin: the gRPC door is ${reachability.blocked ? 'blocked (unreachable)' : 'unblocked'}`);
      const [block, unblock] = TEST_ADMIN_OPERATIONS;
      const operationId = reachability.blocked ? block : unblock;
      const at = options.clock.now();
      if (options.events.listens('control')) options.events.emit({ kind: 'control', at, operationId });
      answer(response, 200, { blocked: reachability.blocked });
      if (options.events.listens('request'))
        options.events.emit({ kind: 'request', at, record: journalFacts(operationId, path, at, request) });
    } catch (error) {
      const known = error instanceof EmulatorError ? error : new EmulatorError('internal_error');
      answer(response, known.status, known.toBody());
    }
  };
  const server = createServer(served);
  server.requestTimeout = 10_000;
  const listening = await listenOn(server, port, host);
  return {
    port: listening,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
