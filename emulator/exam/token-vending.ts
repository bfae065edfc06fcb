import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// The exam's token vending machine (the provider's pattern for browser and edge clients): a
// GET answers a fresh disposable token as `{"token", "expiresAt"}`. Each token gets its own
// id, so the token expiry step can expire every token handed out so far and a client that
// comes back here gets one that works.

export interface IssuedExamToken {
  token: string;
  expiresAt: string;
}

export interface TokenVending {
  url: string;
  /** The ids of every token handed out (and the first one, given in TOPICS_TOKEN). */
  readonly tokenIds: string[];
  close(): Promise<void>;
}

export async function startTokenVending(issue: (tokenId: string) => Promise<IssuedExamToken>): Promise<TokenVending> {
  const tokenIds: string[] = [];
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET') {
      response.writeHead(405, { allow: 'GET', 'content-type': 'application/json' });
      response.end(JSON.stringify({ code: 'method_not_allowed', message: 'GET a token here.' }));
      return;
    }
    const tokenId = `exam-client-${tokenIds.length + 2}`;
    tokenIds.push(tokenId);
    issue(tokenId).then(
      (issued) => {
        response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        response.end(JSON.stringify({ token: issued.token, expiresAt: issued.expiresAt }));
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ code: 'internal_error', message: (error as Error).message }));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/token`,
    tokenIds,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
