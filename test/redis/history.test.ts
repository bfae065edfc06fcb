import { describe, expect, it } from 'vitest';
import { baseUrlOf, runCli, type CliRun } from '../helpers/cli.js';
import { checkedHistory } from '../conformance/history-helpers.js';
import { useFleet } from './fleet.js';

// The stream-history checker on two replicas of one emulator on Redis (publishing on both,
// reading on both), one of them killed (SIGKILL) mid-run and started again on the same port:
// nothing acknowledged is lost, duplicated or reordered, and every subscriber's stream stays
// contiguous across the restart.

const fleet = useFleet();

function replica(prefix: string, port: number): CliRun {
  const run = runCli([
    '--port',
    String(port),
    '--store',
    fleet.redis().url,
    '--store-prefix',
    prefix,
    '--log-level',
    'warn',
  ]);
  fleet.children.push(run);
  return run;
}

describe('two replicas on Redis, one killed and restarted mid-run', () => {
  it('lose nothing acknowledged, and every stream stays contiguous (--strict)', async () => {
    const prefix = 'history-1:';
    const a = replica(prefix, 0);
    const aUrl = await baseUrlOf(a);
    let b = replica(prefix, 0);
    const bUrl = await baseUrlOf(b);
    const bPort = Number(new URL(bUrl).port);
    const restarted = (async () => {
      // Mid-run: once the workload has been publishing for a second.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      b.child.kill('SIGKILL');
      await b.exited;
      b = replica(prefix, bPort);
      await baseUrlOf(b);
    })();
    const history = await checkedHistory([aUrl, bUrl], 'topics-emulator-dev-key', {
      durationMs: 4000,
      drainMs: 10_000,
    });
    await restarted;
    const failed = history.events.filter((e) => e.type === 'publish' && e.target === 1 && e.status === null);
    expect(failed.length, 'publishes to the killed replica that got no answer').toBeGreaterThan(0);
    expect(history.acknowledged).toBeGreaterThan(100);
    expect(history.found).toEqual({});
  });
});
