import type { JournalEntry } from '../../openapi/generated/control-types.js';
import { byTopic, endOf, MAX_EVIDENCE, type ClientView, type RuleOutcome } from '../rule.js';

// Backing off: what a client does after the service said "not now" (429/503 with Retry-After)
// or failed (5xx, a dropped connection).

/** How much earlier than Retry-After a request may arrive: timers and the two clocks are not exact. */
export const RETRY_AFTER_SLACK_MS = 50;

/**
 * After a 429 or 503 with Retry-After, no request of that client to that topic before it has
 * elapsed. HTTP answers only: gRPC has no Retry-After (its status carries none that the
 * provider's SDKs read), so a gRPC client is not held to one.
 */
export function checkRetryAfter(client: ClientView): RuleOutcome {
  const outcome: RuleOutcome = { occasions: 0, violations: [] };
  for (const requests of byTopic(client.requests)) {
    requests.forEach((answer, i) => {
      if ((answer.status !== 429 && answer.status !== 503) || !answer.retryAfterSeconds) return;
      if (answer.protocol === 'grpc') return;
      outcome.occasions++;
      const from = endOf(answer);
      const until = from + answer.retryAfterSeconds * 1000 - RETRY_AFTER_SLACK_MS;
      // Requests are in order of arrival: the scan stops at the first one past the window.
      let early: JournalEntry | undefined;
      for (let j = i + 1; j < requests.length && requests[j]!.at < until; j++)
        if (requests[j]!.at >= from) {
          early = requests[j];
          break;
        }
      if (early)
        outcome.violations.push({
          message: `${answer.status} with Retry-After ${answer.retryAfterSeconds} on ${answer.cache}/${answer.topic}, and the next request came ${Math.round(early.at - from)} ms later`,
          requests: [answer.id, early.id],
        });
    });
  }
  return outcome;
}

/** A retry with fewer than this many retries in its run is not judged for a trend. */
export const BACKOFF_MIN_RETRIES = 4;
/**
 * The most retries of one topic in any second while it fails. A client that starts at 100 ms
 * and doubles makes at most 4 in its first second; 5 leaves room for jitter.
 */
export const BACKOFF_MAX_RETRIES_PER_SECOND = 5;
/**
 * Retrying no faster than this on average is backing off enough, whatever the trend: a client
 * that honours `Retry-After: 1` through an outage keeps a steady 1 s, and that is fine.
 */
export const BACKOFF_SLOW_ENOUGH_MS = 1000;

const failed = (r: JournalEntry) => r.dropped || (r.status !== null && r.status >= 500);

/** The most requests that fall in any one-second window. */
export function busiestSecond(times: readonly number[]): number {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1);

/**
 * After consecutive 5xx answers or dropped connections, retries slow down: never more than
 * BACKOFF_MAX_RETRIES_PER_SECOND, and, unless they are BACKOFF_SLOW_ENOUGH_MS apart on average,
 * the later gaps are longer than the earlier ones (the trend, not each gap: jitter is fine).
 */
export function checkExponentialBackoff(client: ClientView): RuleOutcome {
  const outcome: RuleOutcome = { occasions: 0, violations: [] };
  for (const requests of byTopic(client.requests)) {
    let run: JournalEntry[] = [];
    const judge = (next: JournalEntry | undefined) => {
      const retries = next ? [...run.slice(1), next] : run.slice(1);
      if (retries.length > 0) outcome.occasions++;
      if (retries.length >= BACKOFF_MIN_RETRIES) {
        const gaps = retries.map((r, i) => r.at - endOf(run[i]!));
        const half = Math.floor(gaps.length / 2);
        const rising = mean(gaps.slice(-half)) > mean(gaps.slice(0, half));
        const busiest = busiestSecond(retries.map((r) => r.at));
        const why =
          busiest > BACKOFF_MAX_RETRIES_PER_SECOND
            ? `${busiest} retries in one second (at most ${BACKOFF_MAX_RETRIES_PER_SECOND})`
            : !rising && mean(gaps) < BACKOFF_SLOW_ENOUGH_MS
              ? `the gaps did not grow (${gaps.map((g) => Math.round(g)).join(', ')} ms)`
              : undefined;
        if (why)
          outcome.violations.push({
            message: `${run.length} failures in a row on ${run[0]!.cache}/${run[0]!.topic} and ${why}`,
            requests: [...run, ...(next ? [next] : [])].slice(0, MAX_EVIDENCE).map((r) => r.id),
          });
      }
      run = [];
    };
    for (const request of requests) {
      if (failed(request)) run.push(request);
      else if (run.length > 0) judge(request);
    }
    if (run.length > 0) judge(undefined);
  }
  return outcome;
}
