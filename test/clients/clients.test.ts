import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEmulator, type EmulatorSettings, type RunningEmulator } from '../../emulator/index.js';
import { parked, publish, Subscriber, type Style } from './clients.js';

// Public HTTP clients against the emulator's defaults, as a new user meets them: each
// message is delivered once, nothing is lost across a page change or an emulator restart, and
// no client spins (requests per delivered message stay small). Publishes are sent while the
// subscriber's poll waits, as in production, where a subscriber is connected before others publish.

const CACHE = 'default-cache';
const started: RunningEmulator[] = [];
const subscribers: Subscriber[] = [];

async function emulator(settings: Partial<EmulatorSettings> = {}): Promise<RunningEmulator> {
  const running = await startEmulator({ port: 0, logLevel: 'silent', ...settings });
  started.push(running);
  return running;
}

afterEach(async () => {
  await Promise.all(subscribers.splice(0).map((s) => s.stop()));
  await Promise.all(started.splice(0).map((e) => e.close()));
});

function subscribe(e: RunningEmulator, topic: string, style: Style, abortAfterMs?: number): Subscriber {
  const subscriber = new Subscriber(e.url, e.apiKey, `topics/${CACHE}/${topic}`, style, abortAfterMs).start();
  subscribers.push(subscriber);
  return subscriber;
}

const texts = (s: Subscriber) => s.delivered.map((d) => d.text);

/** Few requests per message: one per answer, plus the client's own aborts and the first poll. */
function expectNoSpinning(s: Subscriber, messages: number): void {
  expect(s.requests, `${s.requests} requests for ${messages} messages`).toBeLessThanOrEqual(
    messages + s.aborts + s.emptyAnswers + 2,
  );
}

describe.each(['cursorless', 'resume-after-new', 'resume-at-new'] as const)('a %s subscriber', (style) => {
  it('receives each message once, with few requests', async () => {
    const e = await emulator();
    await publish(e, 'before', 'published before it subscribed');
    const subscriber = subscribe(e, 'before', style);
    const sent = ['one', 'two', 'three', 'four', 'five'];
    for (const [i, text] of sent.entries()) {
      await parked(e, 'before');
      await publish(e, 'before', text);
      await subscriber.received(i + 1);
    }
    expect(texts(subscriber)).toEqual(sent);
    expectNoSpinning(subscriber, sent.length);
  });

  it('loses nothing across a page change (the topic evicted and recreated)', async () => {
    const e = await emulator();
    const subscriber = subscribe(e, 'reset', style);
    await parked(e, 'reset');
    await publish(e, 'reset', 'before the reset');
    await subscriber.received(1);
    await parked(e, 'reset');
    e.resetTopic(CACHE, 'reset');
    await publish(e, 'reset', 'first on the new page');
    await subscriber.received(2);
    await parked(e, 'reset');
    await publish(e, 'reset', 'second on the new page');
    await subscriber.received(3);
    expect(texts(subscriber)).toEqual(['before the reset', 'first on the new page', 'second on the new page']);
    expect(subscriber.delivered.slice(1).map((d) => d.n)).toEqual([1, 2]);
    if (style !== 'cursorless') expect(subscriber.discontinuities).toBe(1);
    expectNoSpinning(subscriber, 3);
  });

  it('loses nothing across an emulator restart, with the cursor it kept (the new process has new pages)', async () => {
    const first = await emulator();
    const subscriber = subscribe(first, 'restart', style);
    for (const text of ['a1', 'a2', 'a3']) {
      await parked(first, 'restart');
      await publish(first, 'restart', text);
    }
    await subscriber.received(3);
    await parked(first, 'restart');
    const second = await emulator();
    subscriber.baseUrl = second.url; // the same address, a new process: its next poll goes there
    await first.close(); // answers the waiting poll with no items
    await parked(second, 'restart');
    await publish(second, 'restart', 'b1');
    await subscriber.received(4);
    await parked(second, 'restart');
    await publish(second, 'restart', 'b2');
    await subscriber.received(5);
    expect(texts(subscriber)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
    expect(subscriber.delivered.slice(3).map((d) => d.n)).toEqual([1, 2]);
    expectNoSpinning(subscriber, 5);
  });

  it('aborts its own poll (as some clients do at 15 s) and polls again, losing nothing', async () => {
    const e = await emulator();
    const subscriber = subscribe(e, 'abort', style, 600); // 15 s, scaled down
    await parked(e, 'abort');
    await vi.waitFor(() => expect(subscriber.aborts).toBeGreaterThanOrEqual(2), { timeout: 5000, interval: 10 });
    await parked(e, 'abort');
    await publish(e, 'abort', 'after two aborts');
    await subscriber.received(1);
    expect(texts(subscriber)).toEqual(['after two aborts']);
    expectNoSpinning(subscriber, 1);
    expect(e.state().waitingSubscribers.length).toBeLessThanOrEqual(1); // aborted polls leave nothing behind
  });

  it('re-polls after the long-poll timeout answers no items, losing nothing (virtual clock)', async () => {
    const e = await emulator();
    e.setClock({ mode: 'virtual' });
    const subscriber = subscribe(e, 'timeout', style);
    for (let timeouts = 1; timeouts <= 2; timeouts += 1) {
      await parked(e, 'timeout');
      e.advanceClock(e.settings.longPollTimeoutMs);
      await vi.waitFor(() => expect(subscriber.emptyAnswers).toBe(timeouts), { timeout: 5000, interval: 2 });
    }
    await parked(e, 'timeout');
    await publish(e, 'timeout', 'after two timeouts');
    await subscriber.received(1, 5000);
    expect(texts(subscriber)).toEqual(['after two timeouts']);
    expectNoSpinning(subscriber, 1);
  });
});

describe('publishing as clients in the wild do', () => {
  it.each([
    ["fetch's default for a string body", undefined],
    ['JSON with a charset', 'application/json; charset=utf-8'],
    ['a +json type (EventBridge API destinations)', 'application/cloudevents+json'],
    ['form data (curl -d)', 'application/x-www-form-urlencoded'],
  ])('%s reaches a subscriber as text', async (_how, contentType) => {
    const e = await emulator();
    const subscriber = subscribe(e, 'types', 'resume-after-new');
    await parked(e, 'types');
    const body = '{"specversion":"1.0","data":{"reaction":"👍"}}';
    await publish(e, 'types', body, contentType);
    await subscriber.received(1);
    expect(texts(subscriber)).toEqual([body]);
  });
});

describe('the old defaults, for contrast', () => {
  it('with --first-subscribe latest, a cursorless client receives the same message again and again', async () => {
    const e = await emulator({ firstSubscribe: 'latest' });
    const subscriber = subscribe(e, 'spin', 'cursorless');
    await parked(e, 'spin');
    await publish(e, 'spin', 'once');
    await subscriber.received(20);
    await subscriber.stop();
    expect(new Set(texts(subscriber))).toEqual(new Set(['once']));
    expect(subscriber.requests).toBeGreaterThanOrEqual(20);
  });

  it('with --discontinuity alone, a client resuming at new_topic_sequence + 1 spins, then loses message 1 of a new page', async () => {
    const e = await emulator({ discontinuity: 'alone' });
    const subscriber = subscribe(e, 'lost', 'resume-after-new');
    await parked(e, 'lost');
    await publish(e, 'lost', 'before');
    await subscriber.received(1);
    await parked(e, 'lost');
    e.resetTopic(CACHE, 'lost'); // the waiting poll is answered with a lone discontinuity to 1
    // It resumes at 2, ahead of the stream: another lone discontinuity at once, and again.
    await vi.waitFor(() => expect(subscriber.discontinuities).toBeGreaterThanOrEqual(20), {
      timeout: 5000,
      interval: 5,
    });
    await publish(e, 'lost', 'lost: number 1');
    await parked(e, 'lost');
    await publish(e, 'lost', 'number 2');
    await subscriber.received(2);
    expect(texts(subscriber)).toEqual(['before', 'number 2']);
  });
});
