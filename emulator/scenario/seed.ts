import type { ScenarioTopic, ScenarioTopicSeeded } from '../../openapi/generated/control-types.js';
import { cacheNotFound, EmulatorError } from '../errors.js';
import { messageValueOf } from '../topics/content.js';
import type { MessageValue } from '../topics/message.js';
import type { TopicStore } from '../topics/store.js';

// A scenario's `topics`: messages published in order, numbered as any publish is (waiting
// subscribers get them). Every cache and size is checked before the first is published.

const sizeOf = (value: MessageValue) => ('text' in value ? Buffer.byteLength(value.text) : value.binary.byteLength);

export function seedTopics(
  store: TopicStore,
  payloadLimitBytes: number,
  topics: readonly ScenarioTopic[],
): ScenarioTopicSeeded[] {
  // Every replica applies its scenario at start and on reset: seeding a shared store would repeat the messages.
  if (topics.length > 0 && store.health().kind !== 'memory')
    throw new EmulatorError(
      'invalid_body',
      'The request body is invalid: seeding topics needs the in-memory store (with a Redis store, publish them instead).',
    );
  const values = topics.map((t) => t.messages.map(messageValueOf));
  for (const [i, { cache }] of topics.entries()) {
    if (!store.hasCache(cache)) throw cacheNotFound(cache);
    const j = values[i]!.findIndex((value) => sizeOf(value) > payloadLimitBytes);
    if (j >= 0)
      throw new EmulatorError(
        'invalid_body',
        `The request body is invalid: body.topics.${i}.messages.${j} is ${sizeOf(values[i]![j]!)} bytes, over the payload limit of ${payloadLimitBytes}.`,
      );
  }
  return topics.map(({ cache, topic: name }, i) => {
    for (const value of values[i]!) void store.publish(cache, name, value);
    const { page, next } = store.use(cache, name);
    return { cache, topic: name, page, published: values[i]!.length, nextSequenceNumber: next };
  });
}
