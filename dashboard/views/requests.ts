import { useState } from 'preact/hooks';
import { durationOf, timeOf } from '../format.js';
import { html } from '../html.js';
import {
  cursorText,
  decidedByText,
  isFailure,
  itemsText,
  recordLines,
  type JournalEntry,
  type RequestList,
} from '../journal.js';
import { Empty, Panel, Table } from './common.js';
import { useOptional } from './optional.js';

// The request journal (GET /_emulator/requests, newest first). The filters are the journal's own,
// asked of the server, so they search the whole journal, not the rows on screen: operation,
// status, topic, client, door, and errors only. A row opens to its whole record.

interface Filters {
  operation: string;
  status: string;
  topic: string;
  client: string;
  protocol: '' | 'http' | 'grpc';
  failed: boolean;
}

const NO_FILTERS: Filters = { operation: '', status: '', topic: '', client: '', protocol: '', failed: false };

/** The listing's query string for these filters; a field not yet valid (a status of two digits) is left out. */
export function requestsPath(filters: Filters): string {
  const query = new URLSearchParams();
  if (filters.operation) query.set('operation', filters.operation);
  if (/^[1-5][0-9][0-9]$/.test(filters.status)) query.set('status', filters.status);
  if (filters.topic.trim()) query.set('topic', filters.topic.trim());
  if (filters.client.trim()) query.set('client', filters.client.trim());
  if (filters.protocol) query.set('protocol', filters.protocol);
  if (filters.failed) query.set('failed', 'true');
  const text = query.toString();
  return `/_emulator/requests${text ? `?${text}` : ''}`;
}

const OPERATIONS = ['publish', 'subscribe'];

function Record({ entry }: { entry: JournalEntry }) {
  return html`<dl class="record" data-testid="request-record">
    ${recordLines(entry).map(
      ([name, value]) =>
        html`<dt>${name}</dt>
          <dd>${value}</dd>`,
    )}
  </dl>`;
}

export function RequestsPanel({ version }: { version: number }) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [opened, setOpened] = useState<number | undefined>();
  const path = requestsPath(filters);
  const loaded = useOptional<RequestList>(path, version);
  const set =
    <K extends keyof Filters>(key: K, read: (input: HTMLInputElement) => Filters[K]) =>
    (event: Event) =>
      setFilters({ ...filters, [key]: read(event.currentTarget as HTMLInputElement) });
  const text = (input: HTMLInputElement) => input.value;

  const filterRow = html`<div class="row filters">
    <label
      >Operation
      <input
        data-filter="operation"
        list="journal-operations"
        value=${filters.operation}
        onInput=${set('operation', text)}
        placeholder="any"
    /></label>
    <datalist id="journal-operations">${OPERATIONS.map((o) => html`<option value=${o} />`)}</datalist>
    <label
      >Status
      <input
        class="short"
        data-filter="status"
        inputmode="numeric"
        maxlength="3"
        value=${filters.status}
        onInput=${set('status', text)}
        placeholder="any"
    /></label>
    <label
      >Topic <input data-filter="topic" value=${filters.topic} onInput=${set('topic', text)} placeholder="any"
    /></label>
    <label
      >Client <input value=${filters.client} onInput=${set('client', text)} placeholder="token:… or key:#…"
    /></label>
    <label
      >Door
      <select
        value=${filters.protocol}
        onChange=${(e: Event) =>
          setFilters({ ...filters, protocol: (e.currentTarget as HTMLSelectElement).value as Filters['protocol'] })}
      >
        <option value="">any</option>
        <option value="http">HTTP</option>
        <option value="grpc">gRPC</option>
      </select></label
    >
    <label class="check"
      ><input
        type="checkbox"
        data-filter="failed"
        checked=${filters.failed}
        onChange=${set('failed', (input) => input.checked)}
      />
      Errors only</label
    >
  </div>`;

  let body: unknown;
  if (loaded.kind === 'unavailable')
    body = html`<${Empty}>Not available in this version of the emulator (GET /_emulator/requests answered 404).<//>`;
  else if (loaded.kind === 'error') body = html`<${Empty}>${loaded.message}<//>`;
  else if (loaded.kind === 'loading') body = html`<${Empty}>Loading…<//>`;
  else {
    const { entries, journalled, evicted } = loaded.body;
    const counter = html`<p class="counter" data-testid="journal-count">
      ${`${entries.length === 0 ? 'None' : `The newest ${entries.length}`} of the ${journalled} journalled${
        evicted ? ` (${evicted} pushed out)` : ''
      }${path.includes('?') ? ' that match' : ''}; select a row for its whole record`}
    </p>`;
    body =
      entries.length === 0
        ? html`${counter}<${Empty}>No request matches.<//>`
        : html`${counter}<${Table}
              columns=${[
                { label: 'Time', className: 'opt' },
                'Status',
                'Operation',
                'Topic',
                { label: 'Cursor', className: 'opt' },
                { label: 'Items', className: 'opt' },
                { label: 'Duration', className: 'opt' },
                { label: 'Client', className: 'opt' },
                'Decided by',
              ]}
            >
              ${entries.map((r) => {
                const open = opened === r.id;
                return html`<tr
                    key=${r.id}
                    class=${`${isFailure(r) ? 'error' : ''} selectable${open ? ' selected' : ''}`}
                    data-request-id=${r.id}
                    tabindex="0"
                    aria-expanded=${open}
                    onClick=${() => setOpened(open ? undefined : r.id)}
                    onKeyDown=${(e: KeyboardEvent) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault();
                        setOpened(open ? undefined : r.id);
                      }
                    }}
                  >
                    <td class="time opt">${timeOf(r.at)}</td>
                    <td class="num">${r.status ?? '—'}${r.code ? html` <code>${r.code}</code>` : null}</td>
                    <td>
                      ${r.operation ?? `${r.method} ${r.path}`}${r.protocol === 'grpc' ? html` <span class="tag">gRPC</span>` : null}
                    </td>
                    <td>${r.cache && r.topic ? `${r.cache}/${r.topic}` : '—'}</td>
                    <td class="opt">${cursorText(r)}</td>
                    <td class="opt">${itemsText(r)}</td>
                    <td class="opt num">${durationOf(r.durationMs)}</td>
                    <td class="opt">${r.client ?? '—'}</td>
                    <td>${decidedByText(r)}</td>
                  </tr>
                  ${
                    open
                      ? html`<tr class="detail" key=${`${r.id}-record`}>
                          <td colspan="9"><${Record} entry=${r} /></td>
                        </tr>`
                      : null
                  }`;
              })}
            <//>`;
  }
  return html`<${Panel} title="Requests" id="requests">${filterRow}${body}<//>`;
}
