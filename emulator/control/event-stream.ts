import type { OutgoingHttpHeaders } from 'node:http';
import type { OperationHandler } from '../http/operation-handler.js';
import { defaultStreamOptions, EventStream, type EventStreamOptions } from '../live/event-stream.js';
import { version } from '../version.js';
import type { State } from '../../openapi/generated/control-types.js';
import type { EmulatorControls } from './controls.js';

// GET /_emulator/events (streamEvents): the event stream as server-sent events, for the
// dashboard and anyone with curl -N; on a shared store, with the other replicas' requests and
// waiting subscribers too. The response is taken over from fastify (it never ends on
// its own); the reader's disconnect, or the emulator closing its sockets, ends it and removes
// its listener.

export function eventStreamHandler(
  controls: EmulatorControls,
  options: EventStreamOptions = defaultStreamOptions,
): OperationHandler {
  // The hello's state is GET /_emulator/state's. In memory it is taken in the same turn as the
  // stream starts listening (nothing can happen between); on a shared store, with every
  // replica's waiting subscribers, asked first (where a replica cannot be asked, this
  // replica's, rather than no stream).
  const shared = controls.replicas !== undefined;
  return {
    operationId: 'streamEvents',
    async handle(_request, reply) {
      reply.hijack();
      const response = reply.raw;
      const open = (state: State): void => {
        if (response.destroyed) return; // the reader left meanwhile
        response.writeHead(200, {
          // Headers fastify's hooks set (CORS for a configured control-plane origin) go out too.
          ...(reply.getHeaders() as OutgoingHttpHeaders),
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          'x-accel-buffering': 'no',
        });
        response.flushHeaders();
        const stream = new EventStream(response, controls.events, { version, state }, options, controls.replicas);
        response.once('close', () => stream.close());
        response.on('error', () => stream.close());
      };
      if (!shared) return open(controls.state());
      open(await controls.gatheredState().catch(() => controls.state()));
    },
  };
}
