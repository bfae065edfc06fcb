import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

// The server under measurement and the load generator (autocannon, in the bench's own process),
// each on a CPU of its own while a throughput figure runs. Left to the scheduler on a 2-CPU
// machine, the two processes sometimes share a CPU for part of a run: B-fastify's rounds fell
// into two groups, 63–68k and 77–86k req/s (21 fresh processes, 2026-11-25), and a figure's
// median landed in either. Pinned, its rounds lay within 79–83k. Linux only, with taskset
// (util-linux); elsewhere, or with one CPU, nothing is pinned and the log says so.

export interface CpuPinning {
  /** Whether the server and the load generator are pinned. */
  readonly pinned: boolean;
  /** What the log says about it. */
  readonly description: string;
  /** Puts a server's process (every thread) on the server's CPU. */
  server(pid: number | undefined): void;
  /** Gives the bench's own process back every CPU it had. */
  release(): void;
}

const SERVER_CPU = 1;
const LOAD_CPU = 0;

function taskset(args: string[]): string {
  return execFileSync('taskset', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function unpinned(reason: string): CpuPinning {
  return { pinned: false, description: `not pinned (${reason})`, server() {}, release() {} };
}

/** Pins the bench's process (the load generator) to one CPU now; servers go to another as they start. */
export function pinCpus(): CpuPinning {
  if (process.platform !== 'linux') return unpinned(`taskset is Linux only, this is ${process.platform}`);
  if (availableParallelism() < 2) return unpinned('one CPU');
  let mask: string;
  try {
    // "pid 123's current affinity mask: 3"
    mask = taskset(['-p', String(process.pid)])
      .trim()
      .split(' ')
      .at(-1)!;
    taskset(['-a', '-p', '-c', String(LOAD_CPU), String(process.pid)]);
  } catch (error) {
    return unpinned(`taskset failed: ${(error as Error).message.split('\n')[0]}`);
  }
  return {
    pinned: true,
    description: `server on CPU ${SERVER_CPU}, load generator on CPU ${LOAD_CPU} (taskset)`,
    server(pid) {
      if (pid !== undefined) taskset(['-a', '-p', '-c', String(SERVER_CPU), String(pid)]);
    },
    release() {
      taskset(['-a', '-p', mask, String(process.pid)]);
    },
  };
}
