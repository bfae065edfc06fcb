import { expect, vi } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';

// Small subscribers written the way public Topics HTTP clients are (service-facts "Subscribe"):
// one re-polls without a cursor after every answer (browser apps by the provider's developer
// relations); the others resume from a cursor, after a discontinuity either at
// new_topic_sequence + 1 (the JavaScript SDK's convention, copied by an agent framework) or at
// new_topic_sequence (the Unity HTTP client). Each may abort its own poll after a while (some
// clients do at 15 s) and poll again. They count what they send and keep what they receive.

/** Waits until `count` subscribe requests wait on the topic (the emulator's own view). */
export async function parked(e: RunningEmulator, topic: string, count = 1): Promise<void> {
  await vi.waitFor(
    () => expect(e.state().waitingSubscribers.filter((w) => w.topic === topic).length).toBeGreaterThanOrEqual(count),
    { timeout: 5000, interval: 2 },
  );
}

/** Publishes as browsers do: fetch with a string body sends text/plain;charset=UTF-8 unless told otherwise. */
export async function publish(e: RunningEmulator, topic: string, body: string, contentType?: string): Promise<void> {
  const headers: Record<string, string> = {
    authorization: e.apiKey,
    ...(contentType ? { 'content-type': contentType } : {}),
  };
  const response = await fetch(`${e.url}/topics/default-cache/${topic}`, { method: 'POST', headers, body });
  expect(response.status, await response.text()).toBe(204);
}

export interface Delivered {
  page: number;
  n: number;
  text: string;
}

export type Style = 'cursorless' | 'resume-after-new' | 'resume-at-new';

interface Element {
  item?: { sequence_page: number; topic_sequence_number: number; value: { text?: string; binary?: string } };
  discontinuity?: { last_topic_sequence: number; new_topic_sequence: number; new_sequence_page: number };
}

export class Subscriber {
  requests = 0;
  aborts = 0;
  emptyAnswers = 0;
  discontinuities = 0;
  readonly delivered: Delivered[] = [];
  /** The JavaScript SDK's state: the last number seen (0 before any) and its page. */
  private last = 0;
  private page = 0;
  private stopped = false;
  private inFlight: AbortController | undefined;
  private loop: Promise<void> | undefined;
  private readonly arrivals = new Set<() => void>();

  constructor(
    /** Where the client sends its requests; a test points it at a restarted emulator. */
    public baseUrl: string,
    private readonly key: string,
    private readonly topicPath: string,
    private readonly style: Style,
    private readonly abortAfterMs = 15_000,
  ) {}

  start(): this {
    this.loop = this.run();
    return this;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.inFlight?.abort();
    await this.loop;
  }

  /** Resolves once `count` messages in all have been delivered (bounded by `timeoutMs`). */
  async received(count: number, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.delivered.length < count) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`${this.style}: ${this.delivered.length} of ${count} messages delivered after ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.arrivals.add(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  private query(): string {
    if (this.style === 'cursorless' || this.last === 0) return '';
    return `?sequence_number=${this.last + 1}&sequence_page=${this.page}`;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const controller = new AbortController();
      this.inFlight = controller;
      const timer = setTimeout(() => controller.abort(), this.abortAfterMs);
      this.requests += 1;
      try {
        const response = await fetch(`${this.baseUrl}/${this.topicPath}${this.query()}`, {
          headers: { authorization: this.key },
          signal: controller.signal,
        });
        if (response.status !== 200)
          throw new Error(`${this.style}: subscribe answered ${response.status}: ${await response.text()}`);
        this.take(((await response.json()) as { items: Element[] }).items);
      } catch (error) {
        if (!controller.signal.aborted) {
          if (this.stopped) return;
          // The emulator went away (a restart): poll again, as the public clients do.
          if ((error as Error).message.includes('fetch failed')) continue;
          throw error;
        }
        if (!this.stopped) this.aborts += 1;
      } finally {
        clearTimeout(timer);
      }
    }
  }

  private take(items: Element[]): void {
    if (items.length === 0) this.emptyAnswers += 1;
    for (const element of items) {
      if (element.discontinuity) {
        this.discontinuities += 1;
        const { new_topic_sequence: next, new_sequence_page: page } = element.discontinuity;
        // The SDK keeps new_topic_sequence as the last number seen; the Unity client resumes at it.
        this.last = this.style === 'resume-at-new' ? next - 1 : next;
        this.page = page;
      }
      if (element.item) {
        const { sequence_page: page, topic_sequence_number: n, value } = element.item;
        this.delivered.push({ page, n, text: value.text ?? `binary:${value.binary}` });
        this.last = n;
        this.page = page;
      }
    }
    for (const arrived of [...this.arrivals]) arrived();
    this.arrivals.clear();
  }
}
