import { useEffect, useState } from 'preact/hooks';
import type { CacheBytes, CacheItemDetail } from '../../openapi/generated/control-types.js';
import { control } from '../api.js';
import { html } from '../html.js';
import { Empty, Table } from './common.js';

// One cache item opened from the Cache view (GET /_emulator/caches/{cache}/items/{key}): a
// scalar's value, or a collection's members a page at a time (a dictionary's fields and values,
// a sorted set's elements by rank and their scores). Read again when the items change.

const PAGE = 20;

const shown = (bytes: CacheBytes) => bytes.text ?? html`<code>${bytes.base64}</code> (base64)`;

export function CacheItem({
  cache,
  keyBase64,
  changes,
  close,
}: {
  cache: string;
  keyBase64: string;
  /** Anything that changes when the cache's items do (the state's item count and bytes). */
  changes: string;
  close: () => void;
}) {
  const [offset, setOffset] = useState(0);
  const [detail, setDetail] = useState<CacheItemDetail | undefined>();
  const [failed, setFailed] = useState<string | undefined>();
  useEffect(() => setOffset(0), [cache, keyBase64]);
  useEffect(() => {
    let current = true;
    const path = `/_emulator/caches/${encodeURIComponent(cache)}/items/${encodeURIComponent(keyBase64)}`;
    control<CacheItemDetail>('GET', `${path}?offset=${offset}&limit=${PAGE}`).then(
      (found) => current && (setDetail(found), setFailed(undefined)),
      (error: Error) => current && (setDetail(undefined), setFailed(error.message)),
    );
    return () => {
      current = false;
    };
  }, [cache, keyBase64, offset, changes]);
  const heading = html`<div class="row">
    <h3 data-testid="cache-item-title">
      ${detail ? html`${shown({ text: detail.item.key, base64: keyBase64 })} · ${detail.item.type}` : keyBase64}
    </h3>
    <button type="button" onClick=${close}>Close</button>
  </div>`;
  if (failed || !detail) return html`<div class="cache-item">${heading}<${Empty}>${failed ?? 'Loading…'}<//></div>`;
  const { item, value, members, memberCount } = detail;
  const columns = [
    'Member',
    ...(item.type === 'dictionary' ? ['Value'] : []),
    ...(item.type === 'sorted-set' ? ['Score'] : []),
  ];
  return html`<div class="cache-item" data-testid="cache-item">
    ${heading}
    ${
      value
        ? html`<p data-testid="cache-item-value">${shown(value)}</p>`
        : html`<${Table} columns=${columns} label="Members">
              ${members.map(
                (m) =>
                  html`<tr>
                    <td class="key">${shown(m.member)}</td>
                    ${m.value ? html`<td>${shown(m.value)}</td>` : null}
                    ${m.score !== undefined ? html`<td>${m.score}</td>` : null}
                  </tr>`,
              )}
            <//>
            <p class="counter row" data-testid="cache-item-page">
              ${`Members ${memberCount === 0 ? 0 : offset + 1}–${offset + members.length} of ${memberCount}`}
              <button type="button" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - PAGE))}>
                Previous
              </button>
              <button
                type="button"
                disabled=${offset + members.length >= memberCount}
                onClick=${() => setOffset(offset + PAGE)}
              >
                Next
              </button>
            </p>`
    }
  </div>`;
}
