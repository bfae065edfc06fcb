import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import type { Snapshot } from '../../emulator/snapshot/document.js';
import { CACHE, clientOf, start } from '../control/helpers.js';

// Probe (#43 item 7, a state written at the snapshot bounds did not load back): a snapshot loaded
// with a topic's next number or the last page at the bound (9e15) and then one publish or page
// change was written with 9e15 + 1, which the loader refused. Every page and number the emulator
// can give now loads back: the bounds are the largest safe integer, and the emulator never numbers
// or pages past it (the publish or page change that would is refused, naming the reset).

const MAX = Number.MAX_SAFE_INTEGER;
const started: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.close()));
});
const emulator = async () => {
  const e = await start({});
  started.push(e);
  return e;
};

/** A snapshot of one topic at `page` with `next` as its next number, and `lastPage`. */
async function near(e: RunningEmulator, page: number, next: number, lastPage = page): Promise<Snapshot> {
  const base = e.snapshot();
  return {
    ...base,
    lastPage,
    topics: [{ cache: CACHE, topic: 'edge', page, nextSequenceNumber: next, messages: [] }],
  };
}

const publish = (e: RunningEmulator) =>
  fetch(`${e.url}/topics/${CACHE}/edge`, {
    method: 'POST',
    headers: { authorization: e.apiKey, 'content-type': 'text/plain' },
    body: 'one more',
  });

describe('snapshot bounds', () => {
  it('a state one publish and one page change past the old bound (9e15 + 1) loads back', async () => {
    const source = await emulator();
    source.restore(await near(source, 9e15, 9e15));
    expect((await publish(source)).status).toBe(204);
    const written = source.snapshot();
    expect(written.topics[0]!.nextSequenceNumber).toBe(9e15 + 1);
    const target = await emulator();
    expect(target.restore(written).topics).toBe(1);
    expect(target.snapshot().topics).toEqual(written.topics);

    source.restore(await near(source, 9e15, 1, 9e15));
    await clientOf(source).control('POST', `/topics/${CACHE}/edge/reset`);
    const paged = source.snapshot();
    expect(paged.lastPage).toBe(9e15 + 1);
    expect(target.restore(paged).topics).toBe(1);
  });

  it('at the largest safe integer the emulator numbers no further: the publish is refused naming the reset, and the state still loads back', async () => {
    const source = await emulator();
    source.restore(await near(source, 1_800_000_000, MAX - 1));
    expect((await publish(source)).status).toBe(204);
    const refused = await publish(source);
    expect(refused.status).toBe(500);
    expect(await refused.json()).toMatchObject({ code: 'internal_error', message: expect.stringMatching(/reset/) });
    const written = source.snapshot();
    expect(written.topics[0]!.nextSequenceNumber).toBe(MAX);
    const target = await emulator();
    expect(target.restore(written).topics).toBe(1);
  });
});
