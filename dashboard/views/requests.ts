import { useState } from 'preact/hooks';
import { timeOf } from '../format.js';
import { html } from '../html.js';
import { decidedByText, entryMatches, isFailure, type RequestList } from '../journal.js';
import { Empty, Panel, Table } from './common.js';
import { Unavailable, useOptional } from './optional.js';

// The request journal (GET /_emulator/requests, newest first): status, operation (gRPC calls
// marked), topic, client and what decided the answer, filterable.

export function RequestsPanel({ version }: { version: number }) {
  const loaded = useOptional<RequestList>('/_emulator/requests', version);
  const [filter, setFilter] = useState('');
  const [errorsOnly, setErrorsOnly] = useState(false);
  if (loaded.kind !== 'ok')
    return html`<${Unavailable} title="Requests" id="requests" path="/_emulator/requests" loaded=${loaded} />`;
  const { entries, journalled, evicted } = loaded.body;
  const shown = entries.filter((r) => entryMatches(r, filter, errorsOnly));
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
      <span class="counter" data-testid="journal-count"
        >${`${shown.length} of the newest ${entries.length} (${journalled} journalled${evicted ? `, ${evicted} pushed out` : ''})`}</span
      >
    </div>
    ${
      shown.length === 0
        ? html`<${Empty}>No request matches.<//>`
        : html`<${Table}
            columns=${[
              { label: 'Time', className: 'opt' },
              'Status',
              'Operation',
              'Topic',
              { label: 'Client', className: 'opt' },
              'Decided by',
            ]}
          >
            ${shown.map(
              (r) =>
                html`<tr key=${r.id} class=${isFailure(r) ? 'error' : ''}>
                  <td class="time opt">${timeOf(r.at)}</td>
                  <td class="num">${r.status ?? '—'}${r.code ? html` <code>${r.code}</code>` : null}</td>
                  <td>
                    ${r.operation ?? `${r.method} ${r.path}`}${r.protocol === 'grpc' ? html` <span class="tag">gRPC</span>` : null}
                  </td>
                  <td>${r.cache && r.topic ? `${r.cache}/${r.topic}` : '—'}</td>
                  <td class="opt">${r.client ?? '—'}</td>
                  <td>${decidedByText(r)}</td>
                </tr>`,
            )}
          <//>`
    }
  <//>`;
}
