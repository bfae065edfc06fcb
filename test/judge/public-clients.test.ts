import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { parked, publish, Subscriber, type Style } from '../clients/clients.js';

// The client rules on the behaviour of public Topics HTTP clients (test/clients/clients.ts)
// through messages and a page change: the clients that resume from a cursor keep every rule;
// the one that re-polls without a cursor after each answer keeps them while it loses nothing,
// and breaks resume.first-request-once for what is published while it is between polls.

let emulator: RunningEmulator | undefined;
let subscriber: Subscriber | undefined;
afterEach(async () => {
  await subscriber?.stop();
  await emulator?.close();
});

async function judged(style: Style): Promise<string[]> {
  emulator = await startEmulator({ port: 0, logLevel: 'silent' });
  subscriber = new Subscriber(emulator.url, emulator.apiKey, 'topics/default-cache/t', style).start();
  for (let n = 1; n <= 4; n++) {
    if (n === 3) emulator.resetTopic('default-cache', 't');
    await parked(emulator, 't');
    await publish(emulator, 't', `m${n}`);
    await subscriber.received(n);
  }
  await subscriber.stop();
  const [client] = (await emulator.clients()).clients;
  expect(client!.counters.polls).toBeGreaterThanOrEqual(4);
  return client!.violations.map((v) => v.rule);
}

describe('public clients judged', () => {
  it.each(['resume-after-new', 'resume-at-new'] as const)('a %s subscriber keeps every rule', async (style) => {
    expect(await judged(style)).toEqual([]);
  });

  it('a cursorless subscriber that loses nothing keeps every rule (each message published while it waits)', async () => {
    expect(await judged('cursorless')).toEqual([]);
  });

  it('a cursorless subscriber breaks resume.first-request-once for each message published while it was between polls', async () => {
    emulator = await startEmulator({ port: 0, logLevel: 'silent' });
    subscriber = new Subscriber(emulator.url, emulator.apiKey, 'topics/default-cache/t', 'cursorless').start();
    for (let round = 1; round <= 3; round++) {
      await parked(emulator, 't');
      // Two in one turn: the first wakes the waiting poll, the second is published before it can poll again.
      void emulator.context.store.publish('default-cache', 't', { text: `a${round}` });
      void emulator.context.store.publish('default-cache', 't', { text: `b${round}` });
      await subscriber.received(round);
    }
    await subscriber.stop();
    expect(subscriber.delivered.map((d) => d.text)).toEqual(['a1', 'a2', 'a3']);
    const [client] = (await emulator.clients()).clients;
    expect(client!.violations.map((v) => [v.rule, v.level, v.message.replace(/^.*, and /, '')])).toEqual([
      ['resume.first-request-once', 'harm', 'lost message 2'],
      ['resume.first-request-once', 'harm', 'lost message 4'],
    ]);
  });
});
