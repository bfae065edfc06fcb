import { useState } from 'preact/hooks';
import type { ExchangeFacts } from '../../emulator/exchange.js';
import { timeOf } from '../format.js';
import { html } from '../html.js';
import { Empty, Panel, Table } from './common.js';
import { listIn, useOptional } from './optional.js';

// The request journal (GET /_emulator/requests): status, operation, topic, client and what
// decided the answer, newest first, filterable.

function decidedBy(r: ExchangeFacts): string {
  const d = r.decidedBy;
  if (!d) return r.dropped ? 'dropped' : r.clientGone ? 'client gone' : '';
  return d.kind === 'fault' ? `fault ${d.ruleId}` : d.kind === 'chaos' ? 'chaos' : `limit: ${d.limit}`;
}

function matches(r: ExchangeFacts, filter: string, errorsOnly: boolean): boolean {
  if (errorsOnly && r.status !== null && r.status < 400 && !r.dropped) return false;
  if (!filter) return true;
  const text = [r.status, r.operation, r.method, r.path, r.cache, r.topic, r.client, r.code, decidedBy(r)]
    .join(' ')
    .toLowerCase();
  return filter
    .toLowerCase()
    .split(/\s+/)
    .every((word) => text.includes(word));
}

export function RequestsPanel({ version }: { version: number }) {
  const loaded = useOptional<unknown>('/_emulator/requests', version);
  const [filter, setFilter] = useState('');
  const [errorsOnly, setErrorsOnly] = useState(false);
  if (loaded.kind === 'unavailable')
    return html`<${Panel} title="Requests" id="requests"
      ><${Empty}>Not available in this version of the emulator (GET /_emulator/requests answered 404).<//><//
    >`;
  if (loaded.kind !== 'ok')
    return html`<${Panel} title="Requests" id="requests"
      ><${Empty}>${loaded.kind === 'loading' ? 'Loading…' : loaded.message}<//><//
    >`;
  const all = (listIn(loaded.body, 'requests', 'records') as ExchangeFacts[]).slice().sort((a, b) => b.at - a.at);
  const shown = all.filter((r) => matches(r, filter, errorsOnly)).slice(0, 300);
  return html`<${Panel} title="Requests" id="requests">
    <div class="row">
      <label
        >Filter
        <input
          type="search"
          value=${filter}
          onInput=${(e: Event) => setFilter((e.currentTarget as HTMLInputElement).value)}
          placeholder="status, operation, topic, client…"
      /></label>
      <label class="check"
        ><input
          type="checkbox"
          checked=${errorsOnly}
          onChange=${(e: Event) => setErrorsOnly((e.currentTarget as HTMLInputElement).checked)}
        />
        Errors only</label
      >
      <span class="counter">${shown.length} of ${all.length}</span>
    </div>
    ${
      shown.length === 0
        ? html`<${Empty}>No request matches.<//>`
        : html`<${Table} columns=${['Time', 'Status', 'Operation', 'Topic', 'Client', 'Decided by']}>
            ${shown.map(
              (r, i) =>
                html`<tr key=${i} class=${r.status === null || r.status >= 400 ? 'error' : ''}>
                  <td class="time">${timeOf(r.at)}</td>
                  <td class="num">${r.status ?? '—'}${r.code ? html` <code>${r.code}</code>` : null}</td>
                  <td>${r.operation ?? `${r.method} ${r.path}`}</td>
                  <td>${r.cache && r.topic ? `${r.cache}/${r.topic}` : '—'}</td>
                  <td>${r.client ?? '—'}</td>
                  <td>${decidedBy(r)}</td>
                </tr>`,
            )}
          <//>`
    }
  <//>`;
}
