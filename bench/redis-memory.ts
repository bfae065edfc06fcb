// What Redis holds per retained message: `npx tsx bench/redis-memory.ts`. Starts its own
// redis-server (ephemeral port, no persistence), publishes through the emulator's Redis store
// (the same Lua script a publish runs) and reads `MEMORY USAGE <stream> SAMPLES 0` (exact) and
// `INFO memory`'s used_memory. Prints one JSON line per case; BENCHMARKS.md quotes them.
import { Redis } from 'ioredis';
import { startEmulator } from '../emulator/index.js';
import { baseUrlOf, runCli } from '../test/helpers/cli.js';
import { startRedis } from '../test/redis/redis-server.js';

const SIZES = [100, 1000];
const ONLY_CHANNEL = process.argv.includes('--channel');
const TEXT = (size: number, i: number) => `${i}:`.padEnd(size, 'x');

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}

const server = await startRedis();
const probe = new Redis(server.url);
try {
  // One topic, N messages of a typical size: the stream key alone.
  for (const size of ONLY_CHANNEL ? [] : SIZES) {
    for (const count of [100, 1000, 10_000]) {
      const prefix = `mem-${size}-${count}:`;
      const emulator = await startEmulator({
        port: 0,
        logLevel: 'silent',
        caches: ['cache'],
        store: server.url,
        storePrefix: prefix,
        retention: count,
      });
      for (let i = 0; i < count; i += 1)
        await emulator.context.store.publish('cache', 'topic', { text: TEXT(size, i) });
      const stream = `${prefix}s:${JSON.stringify(['cache', 'topic'])}`;
      const bytes = Number(await probe.call('MEMORY', 'USAGE', stream, 'SAMPLES', '0'));
      console.log(JSON.stringify({ case: 'one stream', size, count, streamBytes: bytes, perMessage: bytes / count }));
      await emulator.close();
    }
  }
  // Many topics (the default retention, 100): every key, the topic set and the hashes included.
  await probe.flushall();
  const before = await usedMemory(probe);
  const emulator = await startEmulator({
    port: 0,
    logLevel: 'silent',
    caches: ['cache'],
    store: server.url,
    storePrefix: 'many:',
    retention: 100,
  });
  const topics = 1000;
  for (let t = 0; t < topics; t += 1)
    for (let i = 0; i < 100; i += 1) await emulator.context.store.publish('cache', `t${t}`, { text: TEXT(100, i) });
  const after = await usedMemory(probe);
  console.log(
    JSON.stringify({
      case: 'used_memory, 1,000 topics x 100 messages of 100 bytes',
      bytes: after - before,
      perMessage: (after - before) / (topics * 100),
      perTopicKeys: Number(
        await probe.call('MEMORY', 'USAGE', `many:t:${JSON.stringify(['cache', 't0'])}`, 'SAMPLES', '0'),
      ),
    }),
  );
  // The one channel's cost on a replica that holds no subscriber: every publish of every replica
  // is announced to it and applied to its mirror. Its CPU (process_cpu_seconds_total, scraped)
  // over 20,000 publishes made by another replica, 50 at a time over 100 topics.
  const child = runCli(['--port', '0', '--store', server.url, '--store-prefix', 'many:', '--cache', 'cache']);
  child.child.stdout.resume();
  try {
    const url = await baseUrlOf(child);
    const cpu = async () => {
      const text = await (await fetch(`${url}/_emulator/metrics`)).text();
      return Number(/^topics_emulator_process_cpu_seconds_total (\S+)$/m.exec(text)![1]);
    };
    const announcements = 20_000;
    const idleBefore = await cpu();
    await new Promise((resolve) => setTimeout(resolve, 2000)); // the idle replica's own CPU over 2 s, to subtract
    const idle = (await cpu()) - idleBefore;
    const start = await cpu();
    const began = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < announcements) {
        const i = next++;
        await emulator.context.store.publish('cache', `t${i % 100}`, { text: TEXT(100, i) });
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));
    const seconds = (performance.now() - began) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 500)); // let the last announcements arrive
    const used = (await cpu()) - start - (idle * (seconds + 0.5)) / 2;
    console.log(
      JSON.stringify({
        case: 'an idle replica applying announcements',
        announcements,
        publishesPerSecond: Math.round(announcements / seconds),
        cpuMicrosPerAnnouncement: Math.round((used / announcements) * 1e6),
      }),
    );
  } finally {
    child.child.kill('SIGKILL');
    await child.exited;
  }
  await emulator.close();
} finally {
  probe.disconnect();
  await server.stop();
}
