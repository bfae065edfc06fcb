import { describe, expect, it, vi } from 'vitest';
import { TopicsHttpError, type RetryOptions, type TopicEvent } from '../../client/index.js';
import { drop, items, json, text, textItem } from './fake-server.js';
import { useFakeServer } from './fixture.js';

const ctx = useFakeServer();

/** A sleep that returns at once and records what it was asked to wait. */
function instantSleep() {
  return vi.fn(async (_ms: number, _signal: AbortSignal) => {});
}

async function first(retry: RetryOptions): Promise<TopicEvent | undefined> {
  for await (const event of ctx.client.subscribe('c', 't', { retry })) return event;
  return undefined;
}

const ok = items(textItem(1, 1, 'ok'));
const limited = (headers: Record<string, string> = {}) =>
  json(429, { code: 'limit_exceeded', message: 'Too many requests.' }, headers);
const sleptFor = (sleep: ReturnType<typeof instantSleep>) => sleep.mock.calls.map(([ms]) => ms);

describe('subscribe retries', () => {
  it('honours Retry-After on 429 and polls again with the same cursor', async () => {
    ctx.server.script(limited({ 'retry-after': '2' }), ok);
    const sleep = instantSleep();
    const event = await first({ sleep, random: () => 0.9 });
    expect(event).toMatchObject({ kind: 'item', sequenceNumber: 1 });
    expect(sleptFor(sleep)).toEqual([2000]);
    expect(sleep.mock.calls[0]?.[1]).toBeInstanceOf(AbortSignal);
    expect(ctx.server.query(1)).toEqual(ctx.server.query(0));
  });

  it('backs off exponentially when a 429 has no Retry-After', async () => {
    ctx.server.script(limited(), limited(), limited(), ok);
    const sleep = instantSleep();
    await first({ sleep, random: () => 0, initialDelayMs: 100 });
    expect(sleptFor(sleep)).toEqual([100, 200, 400]);
  });

  it('jitters downwards, at most by half', async () => {
    ctx.server.script(limited(), limited(), ok);
    const sleep = instantSleep();
    await first({ sleep, random: () => 0.5, initialDelayMs: 100 });
    expect(sleptFor(sleep)).toEqual([75, 150]);
  });

  it('caps the exponential delay at maxDelayMs', async () => {
    ctx.server.script(limited(), limited(), limited(), limited(), ok);
    const sleep = instantSleep();
    await first({ sleep, random: () => 0, initialDelayMs: 100, maxDelayMs: 300 });
    expect(sleptFor(sleep)).toEqual([100, 200, 300, 300]);
  });

  it('retries 5xx a bounded number of times, then throws the last error', async () => {
    ctx.server.script(
      json(500, { code: 'internal_error', message: 'one' }),
      text(502, 'bad gateway'),
      json(503, { code: 'internal_error', message: 'three' }, { 'retry-after': '4' }),
      ok,
    );
    const sleep = instantSleep();
    const error = await first({ sleep, random: () => 0, initialDelayMs: 10, maxRetries: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TopicsHttpError);
    expect(error).toMatchObject({ status: 503, message: 'three', retryAfterSeconds: 4 });
    expect(ctx.server.requests).toHaveLength(3);
    expect(sleptFor(sleep)).toEqual([10, 20]);
  });

  it('counts only consecutive failures: a success resets the budget', async () => {
    ctx.server.script(limited(), items(textItem(1, 1, 'a')), limited(), items(textItem(2, 1, 'b')));
    const sleep = instantSleep();
    const events: TopicEvent[] = [];
    for await (const event of ctx.client.subscribe('c', 't', {
      retry: { sleep, random: () => 0, maxRetries: 1, initialDelayMs: 10 },
    })) {
      events.push(event);
      if (events.length === 2) break;
    }
    expect(events).toHaveLength(2);
    expect(sleptFor(sleep)).toEqual([10, 10]);
  });

  it('retries a dropped connection', async () => {
    ctx.server.script(drop, ok);
    const sleep = instantSleep();
    const event = await first({ sleep, random: () => 0, initialDelayMs: 10 });
    expect(event).toMatchObject({ kind: 'item', value: { text: 'ok' } });
    expect(sleptFor(sleep)).toEqual([10]);
  });

  it('throws the network error once the retries are spent', async () => {
    ctx.server.script(drop, drop);
    const sleep = instantSleep();
    const error = await first({ sleep, maxRetries: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(ctx.server.requests).toHaveLength(2);
  });

  it.each([
    [400, 'invalid_parameter'],
    [401, 'invalid_token'],
    [403, 'permission_denied'],
    [404, 'cache_not_found'],
  ])('throws %i at once, without retrying', async (status, code) => {
    ctx.server.script(json(status, { code, message: 'no' }), ok);
    const sleep = instantSleep();
    const error = await first({ sleep }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TopicsHttpError);
    expect(error).toMatchObject({ status, code, message: 'no' });
    expect(ctx.server.requests).toHaveLength(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('ends quietly when the signal fires during a backoff', async () => {
    ctx.server.script(limited({ 'retry-after': '3600' }), ok);
    const controller = new AbortController();
    let sleeping!: () => void;
    const asleep = new Promise<void>((resolve) => (sleeping = resolve));
    // Waits for the abort like the real sleep would, and says when it has begun.
    const sleep = vi.fn((_ms: number, signal: AbortSignal) => {
      sleeping();
      return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    });
    const pending = ctx.client.subscribe('c', 't', { signal: controller.signal, retry: { sleep } }).next();
    await asleep;
    controller.abort();
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([3_600_000]);
    expect(ctx.server.requests).toHaveLength(1);
  });

  it('ends quietly even when an injected sleep rejects on abort', async () => {
    ctx.server.script(limited());
    const controller = new AbortController();
    const sleep = vi.fn(async () => {
      controller.abort();
      throw new Error('aborted');
    });
    const pending = ctx.client.subscribe('c', 't', { signal: controller.signal, retry: { sleep } }).next();
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
  });
});
