import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { devCredentials, Publisher, publishHeaders, topicPath } from '../load/publisher.js';
import type { SwarmProcess } from '../load/swarm-process.js';
import { repoRoot } from '../paths.js';
import { ServerProcess } from '../servers/server-process.js';
import type { ServerSpec } from '../servers/server-spec.js';
import { formatSummary, summariseProfile } from './summarise.js';
import { timeStart, type Contender } from '../figures/startup.js';

// Profiles a server's process (`node --cpu-prof`) while the bench drives one path: `publish`
// (autocannon, 100 connections, as the throughput figure) or `fanout` (one publish to 5,000
// waiting subscribers, repeated), or `startup` (spawn to first answer). Prints the top self-time functions and areas. Run on the
// emulator and on its baseline, the difference between the two is what the emulator adds.

export type ProfiledPath = 'publish' | 'fanout' | 'startup' | 'layers';

/** Profiles one start: spawn to first answer, as the start-up figure times it. */
export async function profileStartup(contender: Contender): Promise<string> {
  const dir = join(repoRoot, '.tmp', 'bench-profile', `startup-${contender.name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const ms = await timeStart({ ...contender, args: [`--cpu-prof`, `--cpu-prof-dir=${dir}`, ...contender.args] });
  return summaryOf(dir, `${contender.name}, start-up (${ms.toFixed(0)} ms with the profiler on)`);
}

function summaryOf(dir: string, title: string): string {
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`no .cpuprofile written in ${dir}`);
  const full = join(dir, file);
  return `## ${title} (${full})\n\n${formatSummary(summariseProfile(full))}\n`;
}

export async function profilePath(
  path: 'publish' | 'fanout',
  spec: ServerSpec,
  swarm: SwarmProcess,
  log: (message: string) => void,
): Promise<string> {
  const dir = join(repoRoot, '.tmp', 'bench-profile', `${path}-${spec.kind}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let work = '';
  const server = await ServerProcess.start(
    path === 'fanout' ? { ...spec, settings: { ...spec.settings, longPollTimeoutMs: 0 } } : spec,
    { cpuProfileDir: dir },
  );
  try {
    if (path === 'publish') {
      log(`profile: ${spec.kind}: publishing for 10 s at 100 connections`);
      const result = await autocannon({
        url: `${server.url}${topicPath(devCredentials, 'bench-profile')}`,
        connections: 100,
        duration: 10,
        method: 'POST',
        headers: publishHeaders(devCredentials),
        body: 'hello from the topics-emulator bench',
      });
      work = `${result.requests.total} publishes`;
    } else {
      const subscribers = 5_000;
      const publisher = new Publisher(server.url, devCredentials);
      log(`profile: ${spec.kind}: 10 publishes to ${subscribers} waiting subscribers`);
      await swarm.park({
        url: server.url,
        cacheName: devCredentials.cacheName,
        topics: ['bench-profile'],
        count: subscribers,
        headers: { authorization: devCredentials.apiKey },
        follow: true,
        repollAfter: subscribers,
      });
      for (let i = 0; i < 10; i++) {
        await server.waitInflight(subscribers, 60_000);
        await publisher.publishOk('bench-profile', `profile-${i}`);
        await swarm.waitDelivered(`profile-${i}`, subscribers, 60_000);
      }
      await publisher.close();
      await swarm.reset();
      work = `10 publishes × ${subscribers} deliveries, with ${subscribers} × 11 subscribe requests`;
    }
  } finally {
    await server.stop(); // a clean exit is what makes node write the profile
  }
  return summaryOf(dir, `${spec.kind}, ${path} path: ${work}`);
}
