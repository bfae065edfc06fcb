import type { ClockInput } from '../../openapi/generated/control-types.js';
import { control } from '../api.js';
import { html } from '../html.js';
import { fieldsOf, numberField, onSubmit, Panel, type ViewProps } from './common.js';

// The emulator's clock: real or frozen, its reading and the timers waiting on it; freeze,
// advance, set and release.

export function ClockPanel({ state, run }: ViewProps) {
  const clock = state.clock;
  const set = (label: string, input: ClockInput) => run(label, () => control('POST', '/_emulator/clock', input));
  const advance = onSubmit(
    (form) => void set('Advance clock', { advanceMs: numberField(fieldsOf(form), 'advanceMs') ?? 1000 }),
  );
  const setTo = onSubmit((form) => {
    const when = fieldsOf(form).setTo;
    if (when) void set('Set clock', { setTo: new Date(when).toISOString() });
  });
  return html`<${Panel} title="Clock" id="clock">
    <p class="status-line">
      <strong class=${clock.mode === 'virtual' ? 'on' : 'off'}
        >${clock.mode === 'virtual' ? 'Frozen (virtual)' : 'Real time'}</strong
      >
      ${': '}<time data-testid="clock-now" datetime=${clock.now}>${clock.now}</time> ${' '}<span class="counter"
        >${`${clock.pendingTimers} timer(s) waiting on it.`}</span
      >
    </p>
    <div class="row">
      <button
        type="button"
        onClick=${() => set('Freeze clock', { mode: 'virtual' })}
        disabled=${clock.mode === 'virtual'}
      >
        Freeze clock
      </button>
      <button type="button" onClick=${() => set('Release clock', { mode: 'real' })} disabled=${clock.mode === 'real'}>
        Release clock
      </button>
    </div>
    <form class="row" onSubmit=${advance} aria-label="Advance the clock">
      <label>By (ms) <input name="advanceMs" type="number" min="0" max="31536000000" defaultValue="1000" /></label>
      <button type="submit">Advance clock</button>
    </form>
    <form class="row" onSubmit=${setTo} aria-label="Set the clock">
      <label>To <input name="setTo" type="datetime-local" step="1" /></label>
      <button type="submit">Set clock</button>
    </form>
  <//>`;
}
