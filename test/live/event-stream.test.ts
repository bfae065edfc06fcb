import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmulatorEvents } from '../../emulator/events.js';
import { EventStream, type StreamSink } from '../../emulator/live/event-stream.js';
import { sseComment, sseMessage, sseRetry } from '../../emulator/live/sse.js';
import { PREVIEW_CHARS, previewOf } from '../../emulator/live/wire.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { framesOf, openStream } from '../helpers/sse.js';

// The event stream's wire format, read as raw bytes: what a dashboard or `curl -N` gets.

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const publish = (e: RunningEmulator, topic: string, body: string | Uint8Array, type = 'text/plain') =>
  fetch(`${e.url}/topics/default-cache/${topic}`, {
    method: 'POST',
    headers: { authorization: e.apiKey, 'content-type': type },
    body: body as BodyInit,
  });

describe('GET /_emulator/events', () => {
  it('answers text/event-stream: retry, then a hello with the version and the state', async () => {
    emulator = await startEmulator({ port: 0, logLevel: 'silent' });
    await publish(emulator, 'orders', 'before');
    const stream = await openStream(emulator.url);
    expect(stream.response.statusCode).toBe(200);
    expect(stream.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers['cache-control']).toBe('no-store');
    const hello = await stream.next((f) => f.event === 'hello');
    expect(stream.raw().startsWith('retry: 1000\n\nid: 1\nevent: hello\ndata: {')).toBe(true);
    expect(hello.id).toBe('1');
    const data = JSON.parse(hello.data!);
    expect(data.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(data.state.topics).toMatchObject([{ cache: 'default-cache', topic: 'orders', nextSequenceNumber: 2 }]);
    stream.close();
  });

  it('sends published, page-changed, waiting and control events with increasing ids, one line of JSON each', async () => {
    emulator = await startEmulator({ port: 0, logLevel: 'silent' });
    const stream = await openStream(emulator.url);
    await stream.next((f) => f.event === 'hello');

    expect((await publish(emulator, 'orders', 'line one\nline two')).status).toBe(204);
    const published = await stream.next((f) => f.event === 'published');
    expect(JSON.parse(published.data!)).toMatchObject({
      kind: 'published',
      cache: 'default-cache',
      topic: 'orders',
      sequenceNumber: 1,
      value: { text: 'line one\nline two' },
      size: 17,
      truncated: false,
    });

    await publish(emulator, 'orders', new Uint8Array([0, 255, 1]), 'application/octet-stream');
    const binary = await stream.next((f) => f.event === 'published' && f.id !== published.id);
    expect(JSON.parse(binary.data!)).toMatchObject({ sequenceNumber: 2, value: { binary: 'AP8B' }, size: 3 });

    const reset = await fetch(`${emulator.url}/_emulator/topics/default-cache/orders/reset`, { method: 'POST' });
    const { page } = (await reset.json()) as { page: number };
    const changed = await stream.next((f) => f.event === 'page-changed');
    expect(JSON.parse(changed.data!)).toMatchObject({ cache: 'default-cache', topic: 'orders', page });
    const control = await stream.next((f) => f.event === 'control');
    expect(JSON.parse(control.data!)).toMatchObject({ kind: 'control', operationId: 'resetTopic' });

    const abort = new AbortController();
    const waiting = fetch(`${emulator.url}/topics/default-cache/orders`, {
      headers: { authorization: emulator.apiKey },
      signal: abort.signal,
    }).catch(() => undefined);
    const parked = await stream.next((f) => f.event === 'waiting');
    expect(JSON.parse(parked.data!)).toMatchObject({ topic: 'orders', waiting: 1 });
    abort.abort();
    await waiting;
    await stream.next((f) => f.event === 'waiting' && JSON.parse(f.data!).waiting === 0);

    const frames = stream.frames().filter((f) => f.id !== undefined);
    expect(frames.map((f) => Number(f.id))).toEqual(frames.map((_, i) => i + 1));
    for (const frame of frames) expect(frame.data).not.toContain('\n');
    stream.close();
  });

  it('tells of control operations made through the programmatic API too', async () => {
    emulator = await startEmulator({ port: 0, logLevel: 'silent' });
    const stream = await openStream(emulator.url);
    await stream.next((f) => f.event === 'hello');
    emulator.setClock({ mode: 'virtual' });
    emulator.addFault({ operation: 'publish', status: 503 });
    await stream.next((f) => f.event === 'control' && JSON.parse(f.data!).operationId === 'addFault');
    const ops = stream.frames().filter((f) => f.event === 'control');
    expect(ops.map((f) => JSON.parse(f.data!).operationId)).toEqual(['setClock', 'addFault']);
    stream.close();
  });

  it('a reader that goes away leaves no listener; the emulator closes with a reader connected', async () => {
    emulator = await startEmulator({ port: 0, logLevel: 'silent' });
    const events = emulator.context.events;
    const before = events.listenerCount; // the journal's and the metrics' own
    const gone = await openStream(emulator.url);
    await gone.next((f) => f.event === 'hello');
    expect(events.listenerCount).toBe(before + 1);
    gone.close();
    await vi.waitFor(() => expect(events.listenerCount).toBe(before), { timeout: 2000, interval: 10 });

    const staying = await openStream(emulator.url);
    await staying.next((f) => f.event === 'hello');
    const ended = new Promise<void>((resolve) => staying.response.once('close', resolve));
    await emulator.close();
    await ended;
    expect(events.listenerCount).toBeLessThanOrEqual(before);
  });

  it('a reader that stops reading gets a gap notice instead of an ever-growing buffer', async () => {
    emulator = await startEmulator({ port: 0, logLevel: 'silent' });
    const stream = await openStream(emulator.url);
    await stream.next((f) => f.event === 'hello');
    // 4,000 events of ~1 KiB in one turn of the event loop: the socket cannot drain meanwhile.
    const value = { text: 'x'.repeat(1000) };
    for (let n = 1; n <= 4000; n++)
      emulator.context.events.emit({
        kind: 'published',
        at: 0,
        cache: 'c',
        topic: 't',
        page: 1,
        sequenceNumber: n,
        value,
      });
    // Once the reader has caught up, the next event is preceded by the gap notice.
    let controls = 0;
    await vi.waitFor(
      () => {
        controls += 1;
        emulator!.context.events.emit({ kind: 'control', at: 0, operationId: 'reset' });
        expect(stream.frames().some((f) => f.event === 'gap')).toBe(true);
      },
      { timeout: 2000, interval: 20 },
    );
    const gap = await stream.next((f) => f.event === 'gap');
    const { dropped } = JSON.parse(gap.data!) as { dropped: number };
    const sent = stream.frames().filter((f) => f.event === 'published');
    // Every published event was either sent or counted (so were the control events sent while it was full).
    expect(sent.length + dropped).toBeGreaterThanOrEqual(4000);
    expect(sent.length + dropped).toBeLessThanOrEqual(4000 + controls);
    // ~2.8 MB were emitted; what went out is the 256 KiB bound plus what the kernel's socket took.
    const sentBytes = sent.reduce((sum, f) => sum + f.data!.length, 0);
    expect(sentBytes).toBeLessThan(1024 * 1024);
    expect(dropped).toBeGreaterThan(2000);
    await stream.next((f) => f.event === 'control');
    stream.close();
  });

  it('is a control operation: the admin key is required, and another origin is refused', async () => {
    emulator = await startEmulator({ port: 0, logLevel: 'silent', adminKey: 'sekrit-admin-key' });
    const without = await fetch(`${emulator.url}/_emulator/events`);
    expect(without.status).toBe(401);
    expect(await without.json()).toMatchObject({ code: 'admin_key_required' });
    const foreign = await fetch(`${emulator.url}/_emulator/events`, {
      headers: { origin: 'https://evil.example', 'x-emulator-admin-key': 'sekrit-admin-key' },
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ code: 'origin_not_allowed' });
    const stream = await openStream(emulator.url, { 'x-emulator-admin-key': 'sekrit-admin-key' });
    await stream.next((f) => f.event === 'hello');
    stream.close();
  });
});

describe('EventStream (one reader)', () => {
  function sink(): StreamSink & { text: string; buffered: number; ended: boolean } {
    return {
      text: '',
      buffered: 0,
      ended: false,
      write(chunk) {
        this.text += chunk;
        return true;
      },
      end() {
        this.ended = true;
      },
      get writableLength() {
        return this.buffered;
      },
    };
  }
  const options = { heartbeatMs: 50, retryMs: 250, maxBufferedBytes: 1000, maxStalledMs: 60_000 };
  const control = (operationId: string) => ({ kind: 'control' as const, at: 0, operationId });

  it('writes a heartbeat comment while nothing happens, and stops on close', () => {
    vi.useFakeTimers();
    try {
      const out = sink();
      const events = new EmulatorEvents();
      const stream = new EventStream(out, events, { hi: true }, options);
      expect(out.text).toBe(`${sseRetry(250)}${sseMessage({ id: 1, event: 'hello', data: { hi: true } })}`);
      vi.advanceTimersByTime(120);
      expect(framesOf(out.text).filter((f) => f.comment === 'heartbeat')).toHaveLength(2);
      stream.close();
      stream.close();
      expect(out.ended).toBe(true);
      expect(events.active).toBe(false);
      const before = out.text;
      vi.advanceTimersByTime(500);
      events.emit(control('reset'));
      expect(out.text).toBe(before);
    } finally {
      vi.useRealTimers();
    }
  });

  /** A stream writes what a turn of the event loop sent at the end of that turn. */
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('counts events instead of buffering them past the bound, then announces the gap', async () => {
    const out = sink();
    const events = new EmulatorEvents();
    const stream = new EventStream(out, events, {}, options);
    out.buffered = 5000; // the reader stopped reading
    for (let i = 0; i < 1000; i++) events.emit(control('setClock'));
    expect(stream.droppedEvents).toBe(1000);
    expect(out.text).not.toContain('setClock');
    out.buffered = 0; // it caught up
    events.emit(control('reset'));
    await turn();
    const frames = framesOf(out.text).filter((f) => f.event);
    expect(frames.map((f) => [f.id, f.event, f.data])).toEqual([
      ['1', 'hello', '{}'],
      ['2', 'gap', '{"dropped":1000}'],
      ['3', 'control', JSON.stringify(control('reset'))],
    ]);
    stream.close();
  });

  it('encodes an event once for every reader, and writes a turn’s events in one write', async () => {
    const events = new EmulatorEvents();
    const outs = [sink(), sink(), sink()];
    const streams = outs.map((out) => new EventStream(out, events, {}, options));
    const writes = outs.map((out) => vi.spyOn(out, 'write'));
    const stringify = vi.spyOn(JSON, 'stringify');
    events.emit(control('reset'));
    events.emit(control('setClock'));
    expect(stringify).toHaveBeenCalledTimes(2);
    await turn();
    for (const write of writes) expect(write).toHaveBeenCalledOnce();
    for (const out of outs) expect(out.text).toContain(`data: ${JSON.stringify(control('reset'))}`);
    for (const stream of streams) stream.close();
  });

  it('closes a reader that has had no room for maxStalledMs (it reconnects, or it is gone)', () => {
    vi.useFakeTimers();
    try {
      const out = sink();
      const events = new EmulatorEvents();
      const stream = new EventStream(out, events, {}, { ...options, maxStalledMs: 1000 });
      out.buffered = 5000; // the reader stopped reading
      events.emit(control('setClock'));
      vi.advanceTimersByTime(900);
      expect(out.ended).toBe(false);
      vi.advanceTimersByTime(200); // the next heartbeat finds it stalled past the bound
      expect(out.ended).toBe(true);
      expect(events.active).toBe(false);
      stream.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends one waiting count per topic per turn of the event loop, the last one', async () => {
    const out = sink();
    const events = new EmulatorEvents();
    const stream = new EventStream(out, events, {}, options);
    for (let waiting = 1; waiting <= 500; waiting++)
      events.emit({ kind: 'waiting', at: 0, cache: 'c', topic: 't', waiting });
    events.emit({ kind: 'waiting', at: 0, cache: 'c', topic: 'other', waiting: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    const sent = framesOf(out.text)
      .filter((f) => f.event === 'waiting')
      .map((f) => JSON.parse(f.data!));
    expect(sent.map((w) => [w.topic, w.waiting])).toEqual([
      ['t', 500],
      ['other', 1],
    ]);
    stream.close();
  });
});

describe('the wire format', () => {
  it('keeps every message on one data line and comments on one line', () => {
    expect(sseMessage({ id: 7, event: 'published', data: { text: 'a\nb\r\nc' } })).toBe(
      'id: 7\nevent: published\ndata: {"text":"a\\nb\\r\\nc"}\n\n',
    );
    expect(sseComment('two\nlines')).toBe(': two lines\n\n');
    expect(sseRetry(1500.7)).toBe('retry: 1500\n\n');
  });

  it('cuts a large value to a preview and says how large it was', () => {
    const text = previewOf({ text: 'x'.repeat(PREVIEW_CHARS + 10) });
    expect(text).toMatchObject({ size: PREVIEW_CHARS + 10, truncated: true });
    expect((text.value as { text: string }).text).toHaveLength(PREVIEW_CHARS);
    const bytes = Buffer.alloc(2000, 7);
    const binary = previewOf({ binary: bytes.toString('base64') });
    expect(binary).toMatchObject({ size: 2000, truncated: true });
    expect(Buffer.from((binary.value as { binary: string }).binary, 'base64')).toEqual(bytes.subarray(0, 384));
    expect(previewOf({ binary: 'AP8=' })).toEqual({ value: { binary: 'AP8=' }, size: 2, truncated: false });
  });
});
