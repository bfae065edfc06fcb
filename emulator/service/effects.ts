import { EmulatorError } from '../errors.js';
import type { Delays } from '../faults/delay.js';
import type { Effect } from '../requests.js';

// A decided effect (a fault rule's, chaos's, an account limit's, momento-local's metadata),
// applied once for every door: its delay held with the core's one `Delays` (so a reset, a
// shutdown or the client leaving ends it, whichever door the request came through), then what is
// left for the door to translate: go on, drop the connection, or the error (thrown) to answer.

/** What the door does once the effect's hold is over (an error is thrown instead). */
export type EffectOutcome = 'go-on' | 'drop' | 'client-gone';

/** The client leaving, as a door tells it: a response's or a call's `close`. */
export type ClientGone = Parameters<Delays['wait']>[1];

export async function applyEffect(effect: Effect, delays: Delays, gone: ClientGone): Promise<EffectOutcome> {
  if (effect.delayMs) {
    if (delays.full)
      throw new EmulatorError(
        'limit_exceeded',
        `Too many requests held by delay faults (the limit is ${delays.limit}, as --max-waiting): try again shortly.`,
        { 'retry-after': '1' },
      );
    const outcome = await delays.wait(effect.delayMs, gone);
    if (outcome === 'client-gone') return 'client-gone';
    if (outcome === 'cancelled')
      throw new EmulatorError('service_unavailable', 'The emulator was reset while this request was delayed.');
  }
  if (effect.drop) return 'drop';
  if (effect.error) throw effect.error;
  return 'go-on';
}
