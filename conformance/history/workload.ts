import { randomUUID } from 'node:crypto';
import { decodeElements } from '../elements.js';
import type { HistoryElement, HistoryEvent, PublishEvent, ReadEvent } from './events.js';

// The workload of `topics-conformance history`: N publishers, each sending unique,
// self-describing payloads and awaiting each answer, and M subscribers, each resuming with the
// contract's cursor (behavior 4), for a fixed time, against one endpoint or several (replicas of
// one emulator: publishing on some, reading on all). Every publish and every subscribe answer is
// an event of the history. Bounded: the duration, --max-requests and --rate; loops end when told.

export interface WorkloadOptions {
  baseUrls: string[];
  token: string;
  cache: string;
  topic: string;
  publishers: number;
  subscribers: number;
  durationMs: number;
  /** Indices into baseUrls the publishers send to (round robin by publisher); subscribers read on all. */
  publishOn: number[];
  /** Most requests started per second across the run; 0: no cap. */
  ratePerSecond: number;
  maxRequests: number;
  /** Client-side abort of one long-poll, then the same cursor again. */
  pollTimeoutMs: number;
  /** After publishing stops: how long subscribers may read on to reach every last acknowledged publish. */
  drainMs: number;
  /** Page changes through the emulator's control plane during the run, evenly spaced (0: none). */
  pageChanges: number;
  adminKey?: string | undefined;
  onEvent(event: HistoryEvent): void;
}

export interface WorkloadSummary {
  publishes: number;
  acknowledged: number;
  reads: number;
  requests: number;
  /** The request budget ran out before the duration did. */
  budgetExhausted: boolean;
}

const now = () => performance.timeOrigin + performance.now();
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

class Budget {
  private nextStartAt = 0;
  used = 0;
  exhausted = false;
  constructor(private readonly options: WorkloadOptions) {}

  /** Waits for the rate; false once the request budget is spent. */
  async take(): Promise<boolean> {
    if (this.used >= this.options.maxRequests) return !(this.exhausted = true);
    this.used++;
    if (this.options.ratePerSecond > 0) {
      const at = Date.now();
      const startAt = Math.max(at, this.nextStartAt);
      this.nextStartAt = startAt + 1000 / this.options.ratePerSecond;
      if (startAt > at) await pause(startAt - at);
    }
    return true;
  }
}

function topicUrl(options: WorkloadOptions, target: number): string {
  return `${options.baseUrls[target]!.replace(/\/+$/, '')}/topics/${encodeURIComponent(options.cache)}/${encodeURIComponent(options.topic)}`;
}

/** Why a request got no answer: 'timeout', or the network error's code (ECONNREFUSED, ...) where fetch gives one. */
function errorOf(error: unknown, timedOut: boolean): string {
  if (timedOut) return 'timeout';
  const cause = (error as { cause?: { code?: string; errors?: { code?: string }[]; message?: string } }).cause;
  return cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (error as Error).message;
}

function elementsOf(json: unknown): HistoryElement[] {
  const elements: HistoryElement[] = [];
  for (const element of decodeElements(json) ?? []) {
    if (element.kind === 'discontinuity')
      elements.push({ kind: 'discontinuity', last: element.last, next: element.next, page: element.page });
    else if (element.kind === 'item')
      elements.push({
        kind: 'item',
        n: element.n,
        page: element.page,
        payload: element.value.kind === 'text' ? element.value.text : JSON.stringify(element.value),
      });
  }
  return elements;
}

export async function runWorkload(options: WorkloadOptions): Promise<WorkloadSummary> {
  const run = randomUUID().slice(0, 8);
  const budget = new Budget(options);
  const summary: WorkloadSummary = { publishes: 0, acknowledged: 0, reads: 0, requests: 0, budgetExhausted: false };
  let publishing = true;
  let reading = true;
  const stopAll = new AbortController();
  /** Each publisher's last acknowledged payload; the drain ends once every subscriber has each. */
  const lastAcknowledged = new Map<string, string>();
  const seenBy: Set<string>[] = [];

  const publisher = async (p: number) => {
    const name = `p${p + 1}`;
    const target = options.publishOn[p % options.publishOn.length]!;
    for (let i = 1; publishing; i++) {
      if (!(await budget.take())) break;
      const payload = `h/${run}/${name}/${i}`;
      const sentAt = now();
      const event: PublishEvent = {
        type: 'publish',
        publisher: name,
        target,
        payload,
        sentAt,
        answeredAt: 0,
        status: null,
      };
      try {
        const response = await fetch(topicUrl(options, target), {
          method: 'POST',
          headers: { authorization: options.token, 'content-type': 'text/plain' },
          body: payload,
          signal: AbortSignal.any([AbortSignal.timeout(options.pollTimeoutMs), stopAll.signal]),
        });
        await response.arrayBuffer();
        event.status = response.status;
      } catch (error) {
        event.error = errorOf(error, false);
      }
      event.answeredAt = now();
      summary.publishes++;
      if (event.status === 204 || event.status === 200) {
        summary.acknowledged++;
        lastAcknowledged.set(name, payload);
      } else if (event.status === 429 || event.status === null || event.status >= 500) await pause(100);
      options.onEvent(event);
    }
  };

  const subscriber = async (s: number) => {
    const name = `s${s + 1}`;
    const target = s % options.baseUrls.length;
    const seen = (seenBy[s] = new Set<string>());
    let cursor = { n: 0, page: 0 };
    while (reading) {
      if (!(await budget.take())) break;
      const url = `${topicUrl(options, target)}?sequence_number=${cursor.n}&sequence_page=${cursor.page}`;
      const timeout = AbortSignal.timeout(options.pollTimeoutMs);
      const read: ReadEvent = {
        type: 'read',
        subscriber: name,
        target,
        cursor,
        sentAt: now(),
        answeredAt: 0,
        status: null,
        elements: [],
      };
      try {
        const response = await fetch(url, {
          headers: { authorization: options.token },
          signal: AbortSignal.any([timeout, stopAll.signal]),
        });
        const body = await response.text();
        read.status = response.status;
        if (response.status === 200) read.elements = elementsOf(body === '' ? {} : JSON.parse(body));
      } catch (error) {
        if (stopAll.signal.aborted && !timeout.aborted) break; // the run ended: this read is not part of it
        read.error = errorOf(error, timeout.aborted);
      }
      read.answeredAt = now();
      summary.reads++;
      options.onEvent(read);
      for (const element of read.elements) {
        if (element.kind === 'item') {
          seen.add(element.payload);
          cursor = { n: element.n + 1, page: element.page };
        } else cursor = { n: element.next, page: element.page };
      }
      // A refusal or a dropped connection is asked again at the same cursor, after a pause.
      if (read.status !== 200 && read.error !== 'timeout') await pause(read.status === 429 ? 500 : 100);
    }
  };

  const pageChanger = async () => {
    for (let k = 1; k <= options.pageChanges && publishing; k++) {
      await pause(options.durationMs / (options.pageChanges + 1));
      if (!publishing) break;
      const sentAt = now();
      let status: number | null = null;
      try {
        const response = await fetch(
          `${options.baseUrls[0]!.replace(/\/+$/, '')}/_emulator/topics/${encodeURIComponent(options.cache)}/${encodeURIComponent(options.topic)}/reset`,
          { method: 'POST', headers: options.adminKey ? { 'x-emulator-admin-key': options.adminKey } : {} },
        );
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = null;
      }
      options.onEvent({ type: 'page-change', target: 0, sentAt, answeredAt: now(), status });
    }
  };

  const subscribers = Array.from({ length: options.subscribers }, (_, s) => subscriber(s));
  // The subscribers' first reads wait for the next message: let them be asked before the first publish.
  await pause(Math.min(200, options.durationMs / 10));
  const publishers = Array.from({ length: options.publishers }, (_, p) => publisher(p));
  const changes = pageChanger();
  await pause(options.durationMs);
  publishing = false;
  await Promise.all([...publishers, changes]);
  // Drain: until every subscriber has every publisher's last acknowledged message, or drainMs.
  const drainEnds = Date.now() + options.drainMs;
  const finals = [...lastAcknowledged.values()];
  while (Date.now() < drainEnds && !seenBy.every((seen) => finals.every((payload) => seen.has(payload))))
    await pause(50);
  reading = false;
  stopAll.abort();
  await Promise.all(subscribers);
  summary.requests = budget.used;
  summary.budgetExhausted = budget.exhausted;
  return summary;
}
