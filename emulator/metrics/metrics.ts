import type { EmulatorContext } from '../context.js';
import type { EmulatorEvents } from '../events.js';
import type { ExchangeFacts } from '../exchange.js';
import { answeredFromExchange } from './from-exchange.js';
import { exposition } from './exposition.js';
import { MetricsRecorder, type AnsweredRequest } from './recorder.js';

export type { AnsweredRequest } from './recorder.js';

/** One emulator's metrics: counted as plain numbers, shown in the Prometheus format on scrape. */
export class EmulatorMetrics {
  private readonly recorder = new MetricsRecorder();

  constructor(private readonly context: Pick<EmulatorContext, 'store' | 'faults'>) {
    context.store.observeWakes((ms) => this.recorder.woke(ms / 1000));
  }

  /** Counts one answered request. */
  answered(request: AnsweredRequest): void {
    this.recorder.answered(request);
  }

  /** Counts every answered request of the event stream's exchange records; returns the function that stops it. */
  countExchanges(events: EmulatorEvents): () => void {
    return events.on((event) => {
      if (event.kind !== 'request') return;
      const answered = answeredFromExchange(event.record as ExchangeFacts);
      if (answered) this.recorder.answered(answered);
    });
  }

  /** What a Prometheus scrape gets. */
  scrape(): Promise<{ text: string; contentType: string }> {
    return exposition({ recorder: this.recorder, ...this.context });
  }
}
