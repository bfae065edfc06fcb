import type { FaultRuleInput } from '../../../emulator/index.js';

/** The faults of the "under injected faults" runs: throttling and dropped connections on both operations. */
export function deliveryFaults(seed: number): FaultRuleInput[] {
  return [
    { operation: 'publish', status: 429, retryAfterSeconds: 0, probability: 0.05, seed },
    { operation: 'publish', drop: true, probability: 0.02, seed: seed + 1 },
    { operation: 'subscribe', status: 429, retryAfterSeconds: 0, probability: 0.05, seed: seed + 2 },
    { operation: 'subscribe', drop: true, probability: 0.03, seed: seed + 3 },
    // Some long-polls lose their connection while they wait.
    { operation: 'subscribe', whileWaiting: true, waitedMs: 20, drop: true, probability: 0.3, seed: seed + 4 },
  ];
}
