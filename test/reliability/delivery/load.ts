import { Pool } from 'undici';
import { until } from '../../helpers/emulator.js';
import { CACHE, newPublisher, publish, subscribe, type Publisher, type Subscriber } from './clients.js';
import { keptUpProblems } from './verify.js';

// Concurrent publishers and subscribers on shared topics against a running emulator, driven
// and observed over HTTP only (the control plane for state, page changes and fault rules), so
// the same run works against an emulator in another process.

export interface LoadShape {
  publishers: number;
  /** Subscribers per topic. */
  subscribers: number;
  /** Messages in all, over every publisher and topic. */
  messages: number;
  topics: number;
  /** Page changes per topic, evenly spread over the run (publishers pause, subscribers catch up, then the reset). */
  pageChanges?: number;
  /** How long to wait for the subscribers to catch up at a barrier or at the end. */
  catchUpMs?: number;
  /** Publishers stop early after this long (runs without page changes): a bound in time. */
  publishForMs?: number;
}

export interface LoadResult {
  publishers: Publisher[];
  subscribers: Subscriber[];
  /** Pages each topic went through, in order. */
  pages: Map<string, number[]>;
  elapsedMs: number;
  /** Problems per subscriber (empty when every stream is right). */
  problems: string[];
}

interface TopicState {
  cache: string;
  topic: string;
  page: number;
  firstSequenceNumber: number | null;
  nextSequenceNumber: number;
}

export async function topicStates(url: string): Promise<Map<string, TopicState>> {
  const state = (await (await fetch(`${url}/_emulator/state`)).json()) as { topics: TopicState[] };
  return new Map(state.topics.filter((t) => t.cache === CACHE).map((t) => [t.topic, t]));
}

export async function runLoad(url: string, key: string, shape: LoadShape, prefix: string): Promise<LoadResult> {
  if (shape.messages % shape.publishers !== 0)
    throw new RangeError(
      'messages must divide evenly among the publishers (every publisher must reach every page change)',
    );
  if (shape.publishForMs !== undefined && shape.pageChanges)
    throw new RangeError('a run with page changes publishes every message: no publishForMs');
  const started = Date.now();
  const catchUpMs = shape.catchUpMs ?? 30_000;
  const topics = Array.from({ length: shape.topics }, (_, i) => `${prefix}-${i}`);
  const pool = new Pool(url, { connections: shape.publishers + shape.subscribers * shape.topics + 8 });
  const subscribers = topics.flatMap((topic) =>
    Array.from({ length: shape.subscribers }, (_, i) => subscribe(pool, key, `s${i}@${topic}`, topic)),
  );
  const pages = new Map<string, number[]>();
  const perPublisher = Math.ceil(shape.messages / shape.publishers);
  const rounds = (shape.pageChanges ?? 0) + 1;
  const roundLength = Math.ceil(perPublisher / rounds);
  const publishers: Publisher[] = Array.from({ length: shape.publishers }, (_, id) => newPublisher(id, topics));

  // Every publisher pauses at the start of each round after the first; the last to arrive
  // lets the subscribers catch up, changes every topic's page, and releases them all.
  let arrived = 0;
  let release: () => void = () => {};
  let barrier = new Promise<void>((resolve) => (release = resolve));
  const ackedOn = (topic: string) => publishers.reduce((n, p) => n + p.acked.get(topic)!.length, 0);
  const ackedBefore = new Map(topics.map((t) => [t, 0]));
  const caughtUp = async () => {
    const states = await topicStates(url);
    for (const topic of topics) {
      const state = states.get(topic)!;
      if (!pages.has(topic)) pages.set(topic, [state.page]);
      const expected = { page: state.page, seq: ackedOn(topic) - ackedBefore.get(topic)! + 1 };
      if (state.nextSequenceNumber !== expected.seq)
        throw new Error(
          `${topic}: the emulator's next number is ${state.nextSequenceNumber}, ${expected.seq - 1} were acknowledged`,
        );
      const mine = subscribers.filter((s) => s.topic === topic);
      await until(
        () => mine.every((s) => s.cursor.page === expected.page && s.cursor.seq === expected.seq),
        `the subscribers of ${topic} to catch up`,
        catchUpMs,
      );
    }
  };
  const stopAt = shape.publishForMs === undefined ? Infinity : started + shape.publishForMs;
  const pause = async (k: number) => {
    if (Date.now() > stopAt) return 'stop';
    if (k === 0 || k % roundLength !== 0) return;
    const current = barrier;
    arrived += 1;
    if (arrived === shape.publishers) {
      arrived = 0;
      await caughtUp();
      for (const topic of topics) {
        const response = await fetch(`${url}/_emulator/topics/${CACHE}/${topic}/reset`, { method: 'POST' });
        if (response.status !== 200)
          throw new Error(`page change of ${topic}: ${response.status} ${await response.text()}`);
        pages.get(topic)!.push(((await response.json()) as { page: number }).page);
        ackedBefore.set(topic, ackedOn(topic));
      }
      const done = release;
      barrier = new Promise<void>((resolve) => (release = resolve));
      done();
    }
    await current;
  };

  try {
    await Promise.all(
      publishers.map((p) =>
        publish(pool, key, p, topics, Math.max(0, Math.min(perPublisher, shape.messages - p.id * perPublisher)), pause),
      ),
    );
  } catch (error) {
    await pool.destroy();
    throw error;
  }
  const states = await topicStates(url);
  for (const topic of topics) {
    const state = states.get(topic)!;
    if (!pages.has(topic)) pages.set(topic, [state.page]);
    for (const s of subscribers.filter((x) => x.topic === topic))
      s.stopAt({ page: state.page, seq: state.nextSequenceNumber });
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(subscribers.map((s) => s.finished)),
    new Promise(
      (_, reject) =>
        (timer = setTimeout(
          () => reject(new Error('the subscribers did not reach the end of their topics in time')),
          catchUpMs,
        )),
    ),
  ]).finally(() => clearTimeout(timer));
  await pool.close();
  const problems = subscribers.flatMap((s) => {
    const acked = publishers.map((p) => p.acked.get(s.topic)!);
    return keptUpProblems(s.events, acked, pages.get(s.topic)).map((p) => `${s.name}: ${p}`);
  });
  return { publishers, subscribers, pages, elapsedMs: Date.now() - started, problems };
}
