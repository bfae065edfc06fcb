import { html } from '../html.js';
import { Empty, Panel } from './common.js';
import { listIn, useOptional } from './optional.js';

// The client rules' findings (GET /_emulator/clients): per client, each finding with its rule,
// level and the requests that show it; violations highlighted.

interface Finding {
  rule?: string;
  id?: string;
  level?: string;
  verdict?: string;
  title?: string;
  message?: string;
  requests?: unknown[];
}

const isViolation = (f: Finding) => /violat|fail|error|must/i.test(`${f.level ?? ''} ${f.verdict ?? ''}`);

export function ClientsPanel({ version }: { version: number }) {
  const loaded = useOptional<unknown>('/_emulator/clients', version);
  if (loaded.kind === 'unavailable')
    return html`<${Panel} title="Clients" id="clients"
      ><${Empty}>Not available in this version of the emulator (GET /_emulator/clients answered 404).<//><//
    >`;
  if (loaded.kind !== 'ok')
    return html`<${Panel} title="Clients" id="clients"
      ><${Empty}>${loaded.kind === 'loading' ? 'Loading…' : loaded.message}<//><//
    >`;
  const clients = listIn(loaded.body, 'clients') as Record<string, unknown>[];
  return html`<${Panel} title="Clients" id="clients">
    ${
      clients.length === 0
        ? html`<${Empty}>No client has been judged yet.<//>`
        : clients.map((client, i) => {
            const findings = listIn(client, 'findings', 'rules') as Finding[];
            const name = String(client.client ?? client.id ?? client.name ?? `client ${i + 1}`);
            return html`<div class="client" key=${name}>
              <h3><code>${name}</code></h3>
              ${
                findings.length === 0
                  ? html`<${Empty}>No finding.<//>`
                  : html`<ul class="findings">
                      ${findings.map(
                        (f) =>
                          html`<li class=${isViolation(f) ? 'violation' : ''}>
                            <strong>${f.rule ?? f.id ?? 'rule'}</strong>
                            ${(f.level ?? f.verdict) ? html`<span class="tag">${f.level ?? f.verdict}</span>` : null}
                            ${f.title ?? f.message ?? ''}
                            ${
                              Array.isArray(f.requests) && f.requests.length
                                ? html`<details>
                                    <summary>${f.requests.length} request(s)</summary>
                                    <pre>${JSON.stringify(f.requests, null, 2)}</pre>
                                  </details>`
                                : null
                            }
                          </li>`,
                      )}
                    </ul>`
              }
            </div>`;
          })
    }
  <//>`;
}
