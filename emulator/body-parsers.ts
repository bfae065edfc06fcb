import type { FastifyInstance } from 'fastify';
import type { BodyKind } from './openapi-routes.js';

/** A request body as received: raw bytes, and how its media type is delivered. */
export interface RawBody {
  kind: BodyKind | 'unsupported';
  bytes: Buffer;
}

// Bodies are kept as raw bytes, never parsed: a message is delivered exactly as sent.
// Media types come from the document; anything else is buffered (within the limit) and
// refused by the handler with a message that names the supported types.
export function registerBodyParsers(app: FastifyInstance, bodyKinds: ReadonlyMap<string, BodyKind>, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  for (const [mediaType, kind] of bodyKinds) {
    app.addContentTypeParser(mediaType, { parseAs: 'buffer', bodyLimit }, (_request, bytes, done) => {
      done(null, { kind, bytes: bytes as Buffer } satisfies RawBody);
    });
  }
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, bytes, done) => {
    done(null, { kind: 'unsupported', bytes: bytes as Buffer } satisfies RawBody);
  });
}
