import dc from 'node:diagnostics_channel';
import { createServer, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { clientOf, start } from '../control/helpers.js';

// What the request path adds to objects it does not own (exchanges.ts says why it matters: a
// field added to Node's socket or response after Node made it gives them a second shape, and two
// or more request decorators make fastify's request constructor megamorphic on every request).

interface Answered {
  response: ServerResponse;
  socket: Socket;
}

/** The own keys (names and symbols) of the response and socket of the next request `send` makes, at its finish. */
async function keysOfNextAnswer(send: () => Promise<unknown>): Promise<{ response: string[]; socket: string[] }> {
  let answered: Answered | undefined;
  const onFinish = (message: unknown) => (answered ??= message as Answered);
  dc.subscribe('http.server.response.finish', onFinish);
  try {
    await send();
  } finally {
    dc.unsubscribe('http.server.response.finish', onFinish);
  }
  if (answered === undefined) throw new Error('no response finished');
  return {
    response: Reflect.ownKeys(answered.response).map(String),
    socket: Reflect.ownKeys(answered.socket).map(String),
  };
}

let emulator: RunningEmulator | undefined;
afterEach(() => emulator?.close());

describe('the request path leaves Node and fastify their own shapes', () => {
  it("adds nothing to a publish's socket or response beyond what a bare Node server's have", async () => {
    emulator = await start();
    const client = clientOf(emulator);
    await client.publish('warm', 'a'); // the connection's first request is not special
    const ours = await keysOfNextAnswer(() => client.publish('t', 'hello'));

    const bare = createServer((_request, response) => {
      response.statusCode = 204;
      response.end();
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = bare.address() as { port: number };
      const plain = await keysOfNextAnswer(() => fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'hello' }));
      expect(ours.response.filter((key) => !plain.response.includes(key))).toEqual([]);
      expect(ours.socket.filter((key) => !plain.socket.includes(key))).toEqual([]);
    } finally {
      await new Promise((resolve) => bare.close(resolve));
    }
  });

  it("gives fastify's request one field of the emulator's, the exchange", async () => {
    emulator = await start();
    // fastify keeps its request class under a symbol it does not export.
    const app = emulator.app as unknown as Record<symbol, { props?: { key: string }[] }>;
    const kRequest = Object.getOwnPropertySymbols(app).find((symbol) => symbol.description === 'fastify.Request');
    expect(kRequest).toBeDefined();
    expect(app[kRequest!]!.props?.map((prop) => prop.key)).toEqual(['exchange']);
  });
});
