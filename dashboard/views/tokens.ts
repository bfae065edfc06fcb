import { useState } from 'preact/hooks';
import type { TokenWithdrawal } from '../../openapi/generated/control-types.js';
import { control } from '../api.js';
import { html } from '../html.js';
import { Empty, fieldsOf, numberField, onSubmit, Panel, type ViewProps, Table } from './common.js';

// Tokens: issue one (its role, scope and lifetime), then expire or revoke tokens by id, now or
// after some clock time. The emulator keeps no list of tokens (they are self-contained); the
// ones issued from this tab are listed, with the withdrawals the emulator holds.

interface Issued {
  token: string;
  expiresAt: string;
  tokenId?: string;
}

export function TokensPanel({ state, run }: ViewProps) {
  const [issued, setIssued] = useState<Issued[]>([]);
  const issue = onSubmit((form) => {
    const f = fieldsOf(form);
    const permission = {
      role: f.role ?? 'publishsubscribe',
      cache: f.cache ?? '*',
      ...(f.topic ? { topic: f.topic } : {}),
    };
    void run('Issue token', async () => {
      const token = await control<Issued>('POST', '/_emulator/tokens', {
        permissions: [permission],
        ...(f.tokenId ? { tokenId: f.tokenId } : {}),
        ...(numberField(f, 'ttlSeconds') !== undefined ? { ttlSeconds: numberField(f, 'ttlSeconds') } : {}),
      });
      setIssued((list) => [token, ...list].slice(0, 20));
    });
  });
  const [withdrawn, setWithdrawn] = useState<TokenWithdrawal[]>([]);
  const withdraw = (how: 'expire' | 'revoke') =>
    onSubmit((form) => {
      const f = fieldsOf(form);
      if (!f.tokenId) return;
      const afterMs = numberField(f, 'afterMs');
      void run(how === 'expire' ? 'Expire token' : 'Revoke token', async () => {
        const path = `/_emulator/tokens/${encodeURIComponent(f.tokenId!)}/${how}`;
        const withdrawal = await control<TokenWithdrawal>('POST', path, afterMs !== undefined ? { afterMs } : {});
        if (!withdrawal.scheduled) setWithdrawn((list) => [withdrawal, ...list].slice(0, 20));
      });
    });
  // The emulator lists the withdrawals still to come; those that took effect are listed from this tab.
  const withdrawals = [...state.scheduled.tokenWithdrawals, ...withdrawn];
  return html`<${Panel} title="Tokens" id="tokens">
    <form class="grid-form" onSubmit=${issue} aria-label="Issue a token">
      <fieldset>
        <legend>Issue a token</legend>
        <label>Token id <input name="tokenId" maxlength="64" placeholder="e.g. client-1" /></label>
        <label
          >Role
          <select name="role">
            <option>publishsubscribe</option>
            <option>subscribeonly</option>
            <option>publishonly</option>
          </select></label
        >
        <label>Cache <input name="cache" placeholder="*" /></label>
        <label>Topic <input name="topic" placeholder="*" /></label>
        <label>Lifetime (s) <input name="ttlSeconds" type="number" min="1" max="90000" placeholder="3600" /></label>
      </fieldset>
      <div class="row"><button type="submit">Issue token</button></div>
    </form>
    ${
      issued.length > 0
        ? html`<${Table} columns=${['Id', 'Expires', 'Token']}>
            ${issued.map(
              (t) =>
                html`<tr key=${t.token}>
                  <td>${t.tokenId ?? '—'}</td>
                  <td>${t.expiresAt}</td>
                  <td>
                    <input
                      class="token"
                      readonly
                      value=${t.token}
                      aria-label=${`Token ${t.tokenId ?? ''}`}
                      onFocus=${(e: Event) => (e.currentTarget as HTMLInputElement).select()}
                    />
                  </td>
                </tr>`,
            )}
          <//>`
        : null
    }
    <div class="two">
      <form class="row" onSubmit=${withdraw('expire')} aria-label="Expire a token">
        <label>Token id <input name="tokenId" required maxlength="64" /></label>
        <label>After (ms) <input name="afterMs" type="number" min="0" placeholder="now" /></label>
        <button type="submit">Expire token</button>
      </form>
      <form class="row" onSubmit=${withdraw('revoke')} aria-label="Revoke a token">
        <label>Token id <input name="tokenId" required maxlength="64" /></label>
        <label>After (ms) <input name="afterMs" type="number" min="0" placeholder="now" /></label>
        <button type="submit">Revoke token</button>
      </form>
    </div>
    <h3>Withdrawals</h3>
    ${
      withdrawals.length === 0
        ? html`<${Empty}>No token has been expired or revoked from this tab, and none is scheduled.<//>`
        : html`<ul class="plain">
            ${withdrawals.map(
              (w) => html`<li><code>${w.tokenId}</code> ${w.how} ${w.scheduled ? 'at' : 'since'} ${w.at}</li>`,
            )}
          </ul>`
    }
  <//>`;
}
