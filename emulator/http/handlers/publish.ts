import type { FastifyReply } from 'fastify';
import { EmulatorError } from '../../errors.js';
import type { EmulatorContext } from '../../context.js';
import type { OperationHandler, TopicParams } from '../operation-handler.js';
import type { MessageValue } from '../../topics/message.js';
import { publishMessage } from '../../service/publish.js';
import type { Principal } from '../../auth/authenticator.js';
import type { RawBody } from '../body-parsers.js';
import { bodyKindOf } from '../../content-types.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function charsetOf(contentType: string): string | undefined {
  // Most publishes send a bare type: no parameters to search.
  if (!contentType.includes(';')) return undefined;
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
}

/** Publishes the message (service/publish.ts) and answers 204 once it is numbered. */
type Publish = (
  cache: string,
  topic: string,
  value: MessageValue,
  bytes: number,
  principal: Principal | null | undefined,
  reply: FastifyReply,
) => void | Promise<unknown>;

// In memory a message is numbered at once: the 204 goes now. A shared store answers once Redis
// has numbered it. Which of the two is the backend's kind, known when the route is built.
function publishOf(context: EmulatorContext): Publish {
  const limit = context.settings.payloadLimitBytes;
  if (context.shared === undefined) {
    const store = context.store;
    return (cache, topic, value, bytes, principal, reply) => {
      publishMessage(store, limit, cache, topic, value, bytes, principal);
      reply.code(204).send();
    };
  }
  const store = context.store;
  return (cache, topic, value, bytes, principal, reply) =>
    publishMessage(store, limit, cache, topic, value, bytes, principal).then(() => reply.code(204).send());
}

/** POST /topics/{cacheName}/{topicName}: the body as a message (service/publish.ts), 204. */
export function publishHandler(context: EmulatorContext): OperationHandler {
  const publish = publishOf(context);
  return {
    operationId: 'publish',
    access: 'publish',
    handle(request, reply, route) {
      const { cacheName, topicName } = request.params as TopicParams;
      const body = request.body as RawBody | undefined;
      const contentType = request.headers['content-type'];
      if (contentType === undefined)
        throw new EmulatorError(
          'unsupported_content_type',
          `Content-Type is required. ${EmulatorError.defaultMessage('unsupported_content_type')}`,
        );
      const kind = body?.kind ?? bodyKindOf(contentType, route.bodyKinds, context.settings.contentTypes);
      if (kind === 'unsupported') {
        throw new EmulatorError(
          'unsupported_content_type',
          `Content-Type '${contentType}' is not supported. ${EmulatorError.defaultMessage('unsupported_content_type')}`,
        );
      }
      const bytes = body?.bytes ?? Buffer.alloc(0);
      let value: MessageValue;
      if (kind === 'text') {
        const charset = charsetOf(contentType);
        if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
          throw new EmulatorError(
            'unsupported_content_type',
            `charset '${charset}' is not supported: text must be UTF-8.`,
          );
        }
        try {
          value = { text: utf8.decode(bytes) };
        } catch {
          throw new EmulatorError('invalid_utf8');
        }
      } else {
        value = { binary: bytes };
      }
      return publish(cacheName, topicName, value, bytes.byteLength, request.exchange?.principal, reply);
    },
  };
}
