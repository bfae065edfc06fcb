import type { Principal } from '../auth/authenticator.js';
import type { EmulatorContext } from '../context.js';
import { EmulatorError } from '../errors.js';
import type { MessageValue } from '../topics/message.js';

// Publishing one message, whichever door it came through (the HTTP API's POST, http/handlers/;
// the provider's Publish, grpc/server.ts), once admission has let it in: its size, then the
// topic's next number. The publishing token's id goes with the message (a gRPC subscriber's
// item carries it as `publisher_id`).

/** Who published, as an item names it: the token's id; empty for an API key or no token. */
export function publisherOf(principal: Principal | null | undefined): string {
  return principal?.kind === 'token' ? (principal.tokenId ?? '') : '';
}

/**
 * Appends the message (`bytes` long) to its topic and wakes its subscribers. Returns its number:
 * at once in memory, a promise with a shared store (numbered there).
 */
export function publishMessage(
  context: Pick<EmulatorContext, 'store' | 'settings'>,
  cache: string,
  topic: string,
  value: MessageValue,
  bytes: number,
  principal: Principal | null | undefined,
): number | Promise<number> {
  if (bytes > context.settings.payloadLimitBytes) throw new EmulatorError('payload_too_large');
  return context.store.publish(cache, topic, value, publisherOf(principal));
}
