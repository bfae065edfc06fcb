import type { EmulatorContext } from '../context.js';
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

  /** What a Prometheus scrape gets. */
  scrape(): Promise<{ text: string; contentType: string }> {
    return exposition({ recorder: this.recorder, ...this.context });
  }
}
