import type { LimitsInput } from '../../openapi/generated/control-types.js';
import { control } from '../api.js';
import { html } from '../html.js';
import { definedOnly, fieldsOf, numberField, onSubmit, Panel, type ViewProps } from './common.js';

// The account limits profile: on or off, its numbers, and what the current window has used.

export function LimitsPanel({ state, run }: ViewProps) {
  const limits = state.limits;
  const set = (change: LimitsInput) => run('Set limits', () => control('PUT', '/_emulator/limits', change));
  const submit = onSubmit((form) => {
    const f = fieldsOf(form);
    const change = definedOnly({
      operationsPerSecond: numberField(f, 'operationsPerSecond'),
      concurrentSubscriptions: numberField(f, 'concurrentSubscriptions'),
    });
    if (Object.keys(change).length) void set(change);
  });
  return html`<${Panel} title="Account limits" id="limits">
    <p class="status-line">
      ${limits.enabled ? html`<strong class="on">On</strong>` : html`<strong class="off">Off</strong>`}
      ${`: ${limits.operationsPerSecond} operations/s, ${limits.concurrentSubscriptions} concurrent subscriptions, payload ${limits.payloadBytes} bytes.`}
      ${' '}<span class="counter"
        >${`This window: ${limits.usage.operations} operations, ${limits.usage.subscriptions} subscriptions.`}</span
      >
    </p>
    <div class="row">
      <button type="button" aria-pressed=${limits.enabled} onClick=${() => set({ enabled: !limits.enabled })}>
        ${limits.enabled ? 'Turn limits off' : 'Turn limits on'}
      </button>
    </div>
    <form class="grid-form" onSubmit=${submit} aria-label="Change the limits">
      <fieldset>
        <legend>Profile</legend>
        <label
          >Operations per second
          <input
            name="operationsPerSecond"
            type="number"
            min="1"
            max="1000000"
            placeholder=${limits.operationsPerSecond}
        /></label>
        <label
          >Concurrent subscriptions
          <input
            name="concurrentSubscriptions"
            type="number"
            min="1"
            max="1000000"
            placeholder=${limits.concurrentSubscriptions}
        /></label>
      </fieldset>
      <div class="row"><button type="submit">Apply limits</button></div>
    </form>
  <//>`;
}
