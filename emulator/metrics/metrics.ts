import type { EmulatorContext } from '../context.js';
import type { EmulatorEvents } from '../events.js';
import { firedFault, isAnswered } from './from-exchange.js';
import { exposition } from './exposition.js';
import { MetricsRecorder } from './recorder.js';

export type { AnsweredRequest } from './recorder.js';

/** One emulator's metrics: counted as plain numbers, shown in the Prometheus format on scrape. */
export class EmulatorMetrics {
  private readonly recorder = new MetricsRecorder();

  constructor(private readonly context: Pick<EmulatorContext, 'store' | 'shared' | 'waiting' | 'parking'>) {
    context.parking.observeWakes((ms) => this.recorder.woke(ms / 1000));
    context.shared?.observeRoundTrips((script, ms) => this.recorder.storeRoundTrip(script, ms / 1000));
  }

  /**
   * Counts the event stream's exchange records: every answered request, and every one a fault
   * rule or chaos decided (answered, dropped or left by its client). Returns the function that stops it.
   */
  countExchanges(events: EmulatorEvents): () => void {
    return events.on(
      (event) => {
        if (event.kind !== 'request') return;
        if (firedFault(event.record)) this.recorder.faultFired();
        if (isAnswered(event.record)) this.recorder.answered(event.record);
      },
      ['request'],
    );
  }

  /** What a Prometheus scrape gets. */
  scrape(): Promise<{ text: string; contentType: string }> {
    return exposition({ recorder: this.recorder, ...this.context });
  }
}
