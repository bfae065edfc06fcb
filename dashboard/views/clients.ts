import { timeOf } from '../format.js';
import { html } from '../html.js';
import type { ClientFindings, ClientList, ClientViolation, JournalEntry } from '../journal.js';
import { Empty, Panel, Table } from './common.js';
import { Unavailable, useOptional } from './optional.js';

// The client rules' findings (GET /_emulator/clients): per client, its counters, each rule's
// result (how often it was exercised, how often broken) and every violation with the sentence
// it rests on and the requests that show it; violations highlighted.

/** One request showing a violation: its id, operation, topic and answer, on one line. */
function requestLine(r: JournalEntry): string {
  const topic = r.cache && r.topic ? ` ${r.cache}/${r.topic}` : '';
  return `#${r.id} ${r.operation ?? `${r.method} ${r.path}`}${topic}: ${r.status ?? 'no answer'}${r.code ? ` ${r.code}` : ''}`;
}

function Violation({ violation }: { violation: ClientViolation }) {
  const { rule, level, message, sentence, source, requests } = violation;
  return html`<li class="violation">
    <strong>${rule}</strong> <span class="tag">${level}</span> ${message}
    <blockquote title=${source}>${sentence}</blockquote>
    ${
      requests.length
        ? html`<details>
            <summary>${requests.length} request(s) showing it</summary>
            <ul class="plain">
              ${requests.map(
                (r) => html`<li key=${r.id}><span class="time">${timeOf(r.at)}</span>${` ${requestLine(r)}`}</li>`,
              )}
            </ul>
          </details>`
        : null
    }
  </li>`;
}

function Client({ findings }: { findings: ClientFindings }) {
  const { client, counters: c, rules, violations, subscriptions } = findings;
  return html`<div class="client">
    <h3>
      <code>${client}</code>
      ${violations.length ? html` <span class="tag bad">${violations.length} violation(s)</span>` : null}
    </h3>
    <p class="counter">
      ${`${c.requests} requests: ${c.publishes} publishes, ${c.polls} polls (${subscriptions.length} subscription(s)), ${c.itemsReceived} items, ${c.discontinuities} discontinuities; ${c.errors} errors (${c.throttled} throttled, ${c.unauthorized} unauthorized), ${c.dropped} dropped, ${c.clientGone} left early.`}
    </p>
    ${
      rules.length
        ? html`<${Table}
            columns=${['Rule', 'Level', { label: 'Occasions', className: 'opt' }, 'Violations']}
            label=${`Rules for ${client}`}
          >
            ${rules.map(
              (r) =>
                html`<tr key=${r.rule} class=${r.violations ? 'error' : ''}>
                  <td>${r.rule}</td>
                  <td>${r.level}</td>
                  <td class="num opt">${r.occasions || 'not exercised'}</td>
                  <td class="num">${r.violations}</td>
                </tr>`,
            )}
          <//>`
        : null
    }
    ${
      violations.length
        ? html`<ul class="findings">
            ${violations.map((v, i) => html`<${Violation} key=${i} violation=${v} />`)}
          </ul>`
        : null
    }
  </div>`;
}

export function ClientsPanel({ version }: { version: number }) {
  const loaded = useOptional<ClientList>('/_emulator/clients', version);
  if (loaded.kind !== 'ok')
    return html`<${Unavailable} title="Clients" id="clients" path="/_emulator/clients" loaded=${loaded} />`;
  const { clients } = loaded.body;
  return html`<${Panel} title="Clients" id="clients">
    ${
      clients.length === 0
        ? html`<${Empty}>No client has been judged yet.<//>`
        : clients.map((findings) => html`<${Client} key=${findings.client} findings=${findings} />`)
    }
  <//>`;
}
