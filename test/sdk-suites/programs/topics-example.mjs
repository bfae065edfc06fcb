// The provider's topic examples' calls (client-sdk-javascript, examples/nodejs/topics:
// topic-subscribe.ts, topic-publish.ts, utils/cache.ts), configured as they are: from the
// environment alone (MOMENTO_API_KEY). Makes the cache if it is missing, subscribes, publishes
// argv[4..] and prints each message received; exits once all have come back.
import {
  CacheClient,
  Configurations,
  CreateCache,
  CredentialProvider,
  TopicClient,
  TopicConfigurations,
  TopicPublish,
  TopicSubscribe,
} from '@gomomento/sdk';

const [cacheName, topicName, ...values] = process.argv.slice(2);
const credentialProvider = CredentialProvider.fromEnvironmentVariable({ environmentVariableName: 'MOMENTO_API_KEY' });

const cache = await CacheClient.create({
  configuration: Configurations.Laptop.v1(),
  credentialProvider,
  defaultTtlSeconds: 60,
});
const created = await cache.createCache(cacheName);
if (!(created instanceof CreateCache.Success || created instanceof CreateCache.AlreadyExists))
  throw new Error(`createCache: ${created.toString()}`);

const topics = new TopicClient({ configuration: TopicConfigurations.Default.latest(), credentialProvider });
let left = values.length;
const subscription = await topics.subscribe(cacheName, topicName, {
  onItem: (item) => {
    console.log(`received ${item.valueString()}`);
    if (--left === 0) process.exit(0);
  },
  onError: (error) => console.log(`subscription error ${error.errorCode()}`),
});
if (!(subscription instanceof TopicSubscribe.Subscription)) throw new Error(`subscribe: ${subscription.toString()}`);
for (const value of values) {
  const published = await topics.publish(cacheName, topicName, value);
  if (!(published instanceof TopicPublish.Success)) throw new Error(`publish: ${published.toString()}`);
}
