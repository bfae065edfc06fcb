import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { MomentoErrorCode, TopicClient, TopicConfigurations, TopicPublish } from '@gomomento/sdk';
import { until } from '../helpers/emulator.js';
import { momentoLocal, momentoLocalMiddleware, startGrpcEmulator } from '../grpc/harness.js';

// Probe: delay faults (and momento-local's delay-ms metadata, held by the same core) were counted
// nowhere: 1,000 held subscribes passed --max-waiting 100, and 12,000 held publishes grew memory
// by 200 MB. Holds are bounded by --max-waiting: one more is answered 429 with Retry-After, not held.

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
});

describe('requests held by delay faults', () => {
  it('are at most --max-waiting at once; one more is answered 429 limit_exceeded with Retry-After: 1', async () => {
    emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', maxWaitingSubscribers: 5 });
    emulator.addFault({ operation: 'publish', delayMs: 30_000 });
    const publish = () =>
      fetch(`${emulator!.url}/topics/default-cache/held`, {
        method: 'POST',
        headers: { authorization: emulator!.apiKey, 'content-type': 'text/plain' },
        body: 'm',
      });
    const held = Array.from({ length: 5 }, publish);
    await until(() => emulator!.context.faults.delays.size === 5, 'five publishes held', 10_000);
    const refused = await publish();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { code: string }).code).toBe('limit_exceeded');
    expect(emulator.context.faults.delays.size).toBe(5);
    emulator.reset(); // ends the holds
    for (const answer of await Promise.all(held)) expect(answer.status).toBe(503);
  });

  it("hold the SDK's calls delayed by momento-local's delay-ms the same way: one more is LIMIT_EXCEEDED", async () => {
    emulator = await startGrpcEmulator({ maxWaitingSubscribers: 3 });
    const topics = new TopicClient({
      configuration: TopicConfigurations.Default.latest()
        .withClientTimeoutMillis(60_000)
        .withMiddlewares(momentoLocalMiddleware({ delayRpcs: ['_PublishRequest'], delayMs: 30_000 })),
      credentialProvider: momentoLocal(emulator),
    });
    const held = Array.from({ length: 3 }, () => topics.publish('default-cache', 'held-sdk', 'm'));
    await until(() => emulator!.context.faults.delays.size === 3, 'three SDK publishes held', 10_000);
    const refused = (await topics.publish('default-cache', 'held-sdk', 'm')) as TopicPublish.Error;
    expect(refused.errorCode()).toBe(MomentoErrorCode.LIMIT_EXCEEDED_ERROR);
    expect(emulator.context.faults.delays.size).toBe(3);
    emulator.reset(); // ends the holds
    for (const answer of await Promise.all(held)) expect(answer).toBeInstanceOf(TopicPublish.Error);
  });
});
