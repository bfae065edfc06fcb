import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { parked, publish, Subscriber, type Style } from '../clients/clients.js';

// The client rules on the behaviour of public Topics HTTP clients (test/clients/clients.ts)
// through messages and a page change: the clients that resume from a cursor keep every rule;
// the one that re-polls without a cursor after each answer breaks resume.first-request-once
// (what is published between two of its polls is never delivered to it).

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

  it('a cursorless subscriber breaks resume.first-request-once after each answer', async () => {
    const rules = await judged('cursorless');
    expect(new Set(rules)).toEqual(new Set(['resume.first-request-once']));
    expect(rules.length).toBeGreaterThanOrEqual(3);
  });
});
