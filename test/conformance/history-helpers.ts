import { checkHistory, type CheckResult } from '../../conformance/history/checks/index.js';
import type { HistoryEvent } from '../../conformance/history/events.js';
import { indexHistory } from '../../conformance/history/model.js';
import { runWorkload, type WorkloadOptions } from '../../conformance/history/workload.js';

// The history checker's workload run in this process against base URLs, its history checked.

export interface CheckedHistory {
  events: HistoryEvent[];
  results: CheckResult[];
  /** Anomaly kinds found, with their counts. */
  found: Record<string, number>;
  acknowledged: number;
}

export async function checkedHistory(
  baseUrls: string[],
  token: string,
  options: Partial<WorkloadOptions> = {},
  strict = true,
  /** Sees each event as it is recorded (to act mid-run). */
  observe: (event: HistoryEvent) => void = () => {},
): Promise<CheckedHistory> {
  const events: HistoryEvent[] = [];
  const summary = await runWorkload({
    baseUrls,
    token,
    cache: 'default-cache',
    topic: `history-${Math.random().toString(36).slice(2, 10)}`,
    publishers: 4,
    subscribers: 8,
    durationMs: 1500,
    publishOn: baseUrls.map((_, i) => i),
    ratePerSecond: 0,
    maxRequests: 100_000,
    pollTimeoutMs: 10_000,
    drainMs: 5000,
    pageChanges: 0,
    ...options,
    onEvent: (event) => {
      events.push(event);
      observe(event);
    },
  });
  const results = checkHistory(indexHistory(events), strict);
  const found = Object.fromEntries(
    results.filter((r) => r.anomalies.length > 0).map((r) => [r.check.kind, r.anomalies.length]),
  );
  return { events, results, found, acknowledged: summary.acknowledged };
}
