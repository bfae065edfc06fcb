import { setPriority } from 'node:os';
import { BenchChild } from '../ipc.js';
import type { Delivery, ParkRequest, SwarmStats } from './swarm-spec.js';

/** The subscriber swarm's process, seen from the harness. */
export class SwarmProcess {
  private constructor(private readonly child: BenchChild) {}

  static async start(): Promise<SwarmProcess> {
    const child = new BenchChild('load/swarm-child', {});
    // Below the harness in priority: when a fan-out keeps the server and the swarm busy on both
    // CPUs, the harness still reads its own publish's 204 at once, so an acknowledgement is timed
    // as the server sent it, not as the scheduler got round to it.
    if (child.process.pid !== undefined) {
      try {
        setPriority(child.process.pid, 10);
      } catch {
        // Not allowed here: the figures stand, a little noisier.
      }
    }
    await child.next('ready', 30_000);
    return new SwarmProcess(child);
  }

  park(request: ParkRequest): Promise<{ subscribers: number; connected: number }> {
    return this.child.call('park', request, 120_000);
  }

  waitDelivered(text: string, count: number, timeoutMs = 30_000): Promise<Delivery & { complete: boolean }> {
    return this.child.call('waitDelivered', { text, count, timeoutMs }, timeoutMs + 5_000);
  }

  stats(): Promise<SwarmStats> {
    return this.child.call('stats');
  }

  reset(): Promise<boolean> {
    return this.child.call('reset', {}, 60_000);
  }

  stop(): Promise<void> {
    return this.child.stop();
  }
}
