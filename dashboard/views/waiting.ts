import { durationOf, timeOf } from '../format.js';
import { html } from '../html.js';
import { Empty, Panel, type ViewProps, Table } from './common.js';

// Subscribers waiting now: topic, cursor, client, since when and how long (ticking on the page
// while the clock is real; a frozen clock does not move, so neither does their wait).

export function WaitingPanel({ state, fetchedAt, now }: ViewProps & { fetchedAt: number; now: number }) {
  const rows = state.waitingSubscribers;
  const moving = state.clock.mode === 'real' ? now - fetchedAt : 0;
  return html`<${Panel} title="Waiting subscribers" id="waiting">
    ${
      rows.length === 0
        ? html`<${Empty}
            >No subscriber is waiting. A subscribe with nothing to deliver waits here until a message, its timeout, or a
            page change.<//
          >`
        : html`<${Table}
            columns=${['Topic', 'Cursor (number, page)', 'Client', { label: 'Since', className: 'opt' }, 'Waited']}
          >
            ${rows.map(
              (w, i) =>
                html`<tr key=${i}>
                  <td>${w.cache}/${w.topic}</td>
                  <td class="num">#${w.sequenceNumber} on ${w.sequencePage}</td>
                  <td><code>${w.client ?? '—'}</code></td>
                  <td class="time opt"><time datetime=${w.since}>${timeOf(Date.parse(w.since))}</time></td>
                  <td class="num">${durationOf(w.waitedMs + moving)}</td>
                </tr>`,
            )}
          <//>`
    }
  <//>`;
}
