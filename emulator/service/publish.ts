import type { Principal } from '../auth/authenticator.js';
import { EmulatorError } from '../errors.js';
import type { MessageValue } from '../topics/message.js';
import type { TopicStore } from '../topics/store.js';

// Publishing one message, whichever door it came through (the HTTP API's POST, http/handlers/;
// the provider's Publish, grpc/server.ts), once admission has let it in: its size, then the
// topic's next number. The publishing token's id goes with the message (a gRPC subscriber's
// item carries it as `publisher_id`).

/** Who published, as an item names it: the token's id; empty for an API key or no token. */
export function publisherOf(principal: Principal | null | undefined): string {
  return principal?.kind === 'token' ? (principal.tokenId ?? '') : '';
}

/**
 * Appends the message (`bytes` long, at most `payloadLimitBytes`) to its topic and wakes its
 * subscribers. Returns what the store answers: its number at once in memory, a promise of it
 * with a shared store (numbered there).
 */
export function publishMessage<Numbered extends number | Promise<number>>(
  store: TopicStore<Numbered>,
  payloadLimitBytes: number,
  cache: string,
  topic: string,
  value: MessageValue,
  bytes: number,
  principal: Principal | null | undefined,
): Numbered {
  if (bytes > payloadLimitBytes) throw new EmulatorError('payload_too_large');
  return store.publish(cache, topic, value, publisherOf(principal));
}
