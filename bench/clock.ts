/**
 * Milliseconds on the system's monotonic clock (CLOCK_MONOTONIC via hrtime), comparable across the
 * bench's processes on one machine: the swarm stamps deliveries, the harness stamps publishes.
 */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
