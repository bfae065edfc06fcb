import type { ScheduledTopicReset } from '../../openapi/generated/control-types.js';
import { durationOf } from '../format.js';
import { html } from '../html.js';
import { ruleSummary } from './faults.js';
import { Panel, type ViewProps } from './common.js';

// What is in force right now, in one box next to the topics: waiting subscribers, fault rules
// with their counters, chaos, limits and the clock. Each has its own view for the details.

const scheduledChange = (r: ScheduledTopicReset) =>
  `${r.cache}/${r.topic}: ${r.afterSequenceNumber !== undefined ? `after #${r.afterSequenceNumber}` : `at ${r.at}`}`;

export function GlancePanel({ state, open }: Pick<ViewProps, 'state'> & { open: (tab: string) => void }) {
  const { waitingSubscribers, faults, chaos, limits, clock } = state;
  const link = (tab: string, label: string) =>
    html`<button type="button" class="link" onClick=${() => open(tab)}>${label}</button>`;
  return html`<${Panel} title="Right now" id="glance">
    <dl class="glance">
      <dt>${link('waiting', 'Waiting')}</dt>
      <dd>
        ${
          waitingSubscribers.length === 0
            ? 'nobody'
            : waitingSubscribers
                .slice(0, 3)
                .map((w) => html`<div>${w.topic} at #${w.sequenceNumber}, ${durationOf(w.waitedMs)}</div>`)
        }
        ${waitingSubscribers.length > 3 ? html`<div>and ${waitingSubscribers.length - 3} more</div>` : null}
      </dd>
      <dt>${link('faults', 'Faults')}</dt>
      <dd>
        ${
          faults.length === 0
            ? 'none'
            : faults.map((f) => html`<div><code>${f.id}</code> ${ruleSummary(f.rule)}: fired ${f.fired}</div>`)
        }
      </dd>
      <dt>${link('faults', 'Chaos')}</dt>
      <dd>
        ${chaos.enabled ? `on (seed ${chaos.seed}): ${chaos.injected ?? 0} of ${chaos.draws ?? 0} drew a fault` : 'off'}
      </dd>
      <dt>${link('limits', 'Limits')}</dt>
      <dd>
        ${
          limits.enabled ? `on: ${limits.usage.operations}/${limits.operationsPerSecond} operations this second` : 'off'
        }
      </dd>
      <dt>Page changes</dt>
      <dd>
        ${
          state.scheduled.topicResets.length === 0
            ? 'none scheduled'
            : state.scheduled.topicResets.map((r) => html`<div>${scheduledChange(r)}</div>`)
        }
      </dd>
      <dt>${link('clock', 'Clock')}</dt>
      <dd>${clock.mode === 'virtual' ? 'frozen at' : 'real'} ${clock.now}</dd>
    </dl>
  <//>`;
}
