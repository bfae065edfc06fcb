import { execFileSync } from 'node:child_process';

// The server under measurement and the load generator (autocannon, in the bench's own process),
// each on a CPU of its own while a throughput figure runs. Left to the scheduler on a 2-CPU
// machine, the two processes sometimes share a CPU for part of a run: B-fastify's rounds fell
// into two groups, 63–68k and 77–86k req/s (21 fresh processes, 2026-11-25), and a figure's
// median landed in either. Pinned, its rounds lay within 79–83k. Linux only, with taskset
// (util-linux), on the first two CPUs this process may use; elsewhere, or with one CPU, nothing is
// pinned and the log says so.

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

function taskset(args: string[]): string {
  return execFileSync('taskset', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function unpinned(reason: string): CpuPinning {
  return { pinned: false, description: `not pinned (${reason})`, server() {}, release() {} };
}

/**
 * The CPUs in taskset's affinity list ("pid 1's current affinity list: 0,2-3"), in order: a
 * container may be given CPUs other than 0 and 1.
 */
export function cpusOfAffinityList(output: string): number[] {
  const list = output.slice(output.lastIndexOf(':') + 1).trim();
  if (!/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(list)) throw new Error(`not an affinity list: '${output.trim()}'`);
  return list.split(',').flatMap((part) => {
    const [first, last = first] = part.split('-').map(Number) as [number, number?];
    return Array.from({ length: last - first + 1 }, (_, i) => first + i);
  });
}

/** Pins the bench's process (the load generator) to one CPU now; servers go to another as they start. */
export function pinCpus(): CpuPinning {
  if (process.platform !== 'linux') return unpinned(`taskset is Linux only, this is ${process.platform}`);
  const pid = String(process.pid);
  let cpus: number[];
  try {
    cpus = cpusOfAffinityList(taskset(['-c', '-p', pid]));
  } catch (error) {
    return unpinned(`taskset failed: ${(error as Error).message.split('\n')[0]}`);
  }
  if (cpus.length < 2) return unpinned('this process may use one CPU');
  const [loadCpu, serverCpu] = cpus as [number, number];
  taskset(['-a', '-c', '-p', String(loadCpu), pid]);
  return {
    pinned: true,
    description: `server on CPU ${serverCpu}, load generator on CPU ${loadCpu} (taskset)`,
    server(serverPid) {
      if (serverPid !== undefined) taskset(['-a', '-c', '-p', String(serverCpu), String(serverPid)]);
    },
    release() {
      taskset(['-a', '-c', '-p', cpus.join(','), pid]);
    },
  };
}
