import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { BodyKind } from '../openapi-routes.js';
import { bodyKindOf, contentTypeClassifier, mediaTypeOf, type ContentTypePolicy } from '../content-types.js';

/** A request body as received: raw bytes, and how its media type is delivered. */
export interface RawBody {
  kind: BodyKind | 'unsupported';
  bytes: Buffer;
}

// Bodies are kept as raw bytes, never parsed: a message is delivered exactly as sent.
// Media types (and ranges) come from the document. Any other type is published as binary with
// one warning per type (the live service's answer to it is not published), or refused by the
// handler when the policy is strict.
export function registerBodyParsers(
  app: FastifyInstance,
  bodyKinds: ReadonlyMap<string, BodyKind>,
  bodyLimit: number,
  policy: ContentTypePolicy,
  log: FastifyBaseLogger,
): void {
  app.removeAllContentTypeParsers();
  for (const [mediaType, kind] of bodyKinds) {
    // Ranges and the bare 'octet-stream' are not types fastify can match: the catch-all below does.
    if (mediaType.includes('*') || !mediaType.includes('/')) continue;
    app.addContentTypeParser(mediaType, { parseAs: 'buffer', bodyLimit }, (_request, bytes, done) => {
      done(null, { kind, bytes: bytes as Buffer } satisfies RawBody);
    });
  }
  const listed = contentTypeClassifier(bodyKinds);
  const warned = new Set<string>();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (request, bytes, done) => {
    const contentType = request.headers['content-type'];
    const kind = contentType === undefined ? 'unsupported' : bodyKindOf(contentType, bodyKinds, policy);
    if (contentType !== undefined && kind !== 'unsupported' && listed(contentType) === undefined) {
      const mediaType = mediaTypeOf(contentType).slice(0, 100);
      // One warning per type (bounded: a client inventing types must not flood the log).
      if (!warned.has(mediaType) && warned.size < 1000) {
        warned.add(mediaType);
        log.warn(
          { contentType: mediaType },
          `Content-Type '${mediaType}' is not one the emulator knows: published as binary. The live service may ` +
            'refuse it (what it accepts is not published); start with --content-types strict to get 400 here instead.',
        );
      }
    }
    done(null, { kind, bytes: bytes as Buffer } satisfies RawBody);
  });
}

// Fastify answers 415 for a Content-Type without a slash before any parser runs. The document
// lists the bare `octet-stream` an older page of the provider's docs writes: such a type is read
// as the standard type of the same kind, before the body is (a step of a route's arrival,
// operations.ts). Undefined when the route's media types have no bare one.
export type BareTypeReader = (request: FastifyRequest) => void;

export function bareTypeReader(bodyKinds: ReadonlyMap<string, BodyKind>): BareTypeReader | undefined {
  const bare = new Map<string, string>();
  for (const [mediaType, kind] of bodyKinds) {
    if (!mediaType.includes('/'))
      bare.set(mediaType.toLowerCase(), kind === 'text' ? 'text/plain' : 'application/octet-stream');
  }
  if (bare.size === 0) return undefined;
  return function readBareType(request) {
    const contentType = request.headers['content-type'];
    if (contentType !== undefined && !contentType.includes('/')) {
      const standard = bare.get(mediaTypeOf(contentType));
      if (standard !== undefined)
        request.headers['content-type'] = standard + contentType.slice(mediaTypeOf(contentType).length).trimStart();
    }
  };
}
