// The provider's refresh-token example's calls (client-sdk-javascript,
// examples/nodejs/topics/topic-refresh-token.ts), with short-lived tokens: an AuthClient from the
// environment (MOMENTO_API_KEY) mints disposable topic tokens; each TopicClient is built from one
// with CredentialProvider.fromString; before a token expires the next client subscribes again,
// the old subscription is dropped, and items already seen (by sequence number) are skipped.
// Publishes once every 200 ms for argv[2] ms, then prints a JSON summary.
import {
  AllCaches,
  AllTopics,
  AuthClient,
  CredentialProvider,
  DisposableTokenScopes,
  ExpiresIn,
  GenerateDisposableToken,
  TopicClient,
  TopicPublish,
  TopicSubscribe,
} from '@gomomento/sdk';

const runMs = Number(process.argv[2]);
const TOKEN_SECONDS = 3;
const REFRESH_BEFORE_MS = 1500;
const auth = new AuthClient();

async function disposableToken() {
  const response = await auth.generateDisposableToken(
    DisposableTokenScopes.topicPublishSubscribe(AllCaches, AllTopics),
    ExpiresIn.seconds(TOKEN_SECONDS),
  );
  if (!(response instanceof GenerateDisposableToken.Success)) throw new Error(response.toString());
  return response;
}

const received = [];
const errors = [];
let last = 0;
const onItem = (item) => {
  if (item.sequenceNumber() <= last) return; // an overlap between the old and the new client
  last = item.sequenceNumber();
  received.push(item.valueString());
};
const onError = (error) => errors.push(error.errorCode());

let client;
let subscription;
let refreshes = 0;
async function connect() {
  const token = await disposableToken();
  const next = new TopicClient({ credentialProvider: CredentialProvider.fromString(token.authToken) });
  const opened = await next.subscribe('cache', 'my-topic', { onItem, onError });
  if (!(opened instanceof TopicSubscribe.Subscription)) throw new Error(opened.toString());
  subscription?.unsubscribe();
  subscription = opened;
  client = next;
  const refreshInMs = token.expiresAt.epoch() * 1000 - Date.now() - REFRESH_BEFORE_MS;
  timer = setTimeout(() => void connect().then(() => refreshes++), Math.max(refreshInMs, 100));
}
let timer;
await connect();

const published = [];
const publishing = setInterval(async () => {
  const message = `Message #${published.length + 1}`;
  published.push(message);
  const response = await client.publish('cache', 'my-topic', message);
  if (!(response instanceof TopicPublish.Success)) errors.push(`publish ${response.toString()}`);
}, 200);

setTimeout(() => {
  clearInterval(publishing);
  clearTimeout(timer);
  // The last messages' deliveries, then the summary.
  setTimeout(() => {
    subscription.unsubscribe();
    console.log(JSON.stringify({ published, received, errors, refreshes }));
    process.exit(0);
  }, 1000);
}, runMs);
