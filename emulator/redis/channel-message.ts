// What replicas say to each other on Redis's channels is a JSON object this code wrote. Anything
// else on a channel (another program publishing under the same prefix, a cut message, `null`) is
// ignored: it must not throw inside the Redis client's message handler, where nothing catches it.

/** A channel message as the JSON object its sender wrote, or undefined when it is not one. */
export function channelMessage<T extends object>(text: string): T | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof message === 'object' && message !== null && !Array.isArray(message) ? (message as T) : undefined;
}
