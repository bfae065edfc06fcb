// One subscriber of a stream scenario: polls in a loop as the contract tells a client to
// (advance with last + 1 and the last page; follow discontinuities), until it sees the
// end of the stream. Steps can make it rewind, reconnect or resume with a stale page.
import { advance } from '../answer.js';
import { decodeElements, type Element } from '../elements.js';
import type { Cursor } from '../exchange.js';
import type { StreamModel } from '../model.js';
import type { Target } from '../target.js';

export interface Problem {
  rule: string;
  message: string;
  exchangeIds: number[];
}

type Override = { kind: 'rewind'; back: number } | { kind: 'reconnect'; pageZero: boolean } | { kind: 'stale-page' };

export interface SubscriberEnv {
  rule: string;
  target: Target;
  topic: string;
  model: StreamModel;
  /** True for the values that end the stream (the sentinel and nudges). */
  isEnd(element: Element): boolean;
  report(problem: Problem): void;
  deadline: number;
}

/** A page no topic had: distinct from 0 ("unsure") and from the current page. */
export function stalePage(page: number): number {
  return page > 1 ? page - 1 : page + 7919;
}

export class Subscriber {
  cursor: Cursor;
  joined = false;
  finished = false;
  private override: Override | undefined;
  private controller = new AbortController();
  private stopped = false;
  readonly done: Promise<void>;

  constructor(
    readonly id: string,
    private readonly env: SubscriberEnv,
    start: Cursor = { n: 0, page: 0 },
  ) {
    this.cursor = start;
    env.model.addSubscriber(id);
    this.done = this.loop();
  }

  /** Steps act between two polls: the current long-poll is dropped and the next one applies it. */
  act(override: Override): void {
    if (!this.joined || this.finished) return;
    this.override = override;
    this.controller.abort();
  }

  stop(): void {
    this.stopped = true;
    this.controller.abort();
  }

  private nextRequest(): { cursor: Cursor; stale: boolean } {
    const override = this.override;
    this.override = undefined;
    const { n, page } = this.cursor;
    switch (override?.kind) {
      case 'rewind':
        return { cursor: { n: Math.max(1, n - override.back), page }, stale: false };
      case 'reconnect':
        return { cursor: { n, page: override.pageZero ? 0 : page }, stale: false };
      case 'stale-page':
        return page > 0 ? { cursor: { n, page: stalePage(page) }, stale: true } : { cursor: this.cursor, stale: false };
      default:
        return { cursor: this.cursor, stale: false };
    }
  }

  private async loop(): Promise<void> {
    const { env } = this;
    while (!this.stopped && Date.now() < env.deadline) {
      const { cursor, stale } = this.nextRequest();
      this.controller = new AbortController();
      const exchange = await env.target.subscribe(env.rule, env.topic, cursor, { signal: this.controller.signal });
      if (exchange.error === 'aborted' || exchange.error === 'timeout') continue;
      // No elements after the long-poll timeout (an empty array or a timeout status): poll again.
      if (exchange.status === 408 || exchange.status === 504) continue;
      if (exchange.status !== 200) {
        const outcome = exchange.status !== undefined ? `answered ${exchange.status}` : `failed (${exchange.error})`;
        env.report({
          rule: 'subscribe.success-200',
          message: `${this.id}: a valid subscribe ${outcome}`,
          exchangeIds: [exchange.id],
        });
        return;
      }
      const elements = decodeElements(exchange.json);
      if (!elements) {
        // subscribe.body-schema reports the body; this subscriber cannot go on.
        env.report({
          rule: 'subscribe.body-schema',
          message: `${this.id}: the answer has no items array`,
          exchangeIds: [exchange.id],
        });
        return;
      }
      env.model.received(this.id, cursor, elements, exchange.id, stale);
      if (elements.some((e) => e.kind !== 'malformed')) this.joined = true;
      this.cursor = advance(cursor, elements);
      if (elements.some((e) => env.isEnd(e))) {
        this.finished = true;
        env.model.finish(this.id);
        return;
      }
    }
  }
}
