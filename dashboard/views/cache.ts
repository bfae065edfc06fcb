import { useEffect, useState } from 'preact/hooks';
import type { CacheItemList } from '../../openapi/generated/control-types.js';
import { changeItem, control } from '../api.js';
import { html } from '../html.js';
import { CacheItem } from './cache-item.js';
import { Empty, fieldsOf, numberField, onSubmit, Panel, Table, type ViewProps } from './common.js';

// The cache: a cache's items (GET /_emulator/caches/{cache}/items, the first 100), each key, type,
// size and TTL left, opened (cache-item.ts: its value or members) or deleted by hand; and an item
// set by hand. Sets and deletes go through the
// cache HTTP API, as any client's would; the list follows the state's item count and bytes.

const SHOWN = 100;

const ttlText = (ms: number) => (ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.ceil(ms / 1000)} s`);

export function CachePanel({ state, run }: ViewProps) {
  const [cache, setCache] = useState(state.caches[0] ?? '');
  const [listed, setListed] = useState<CacheItemList | undefined>();
  const [failed, setFailed] = useState<string | undefined>();
  const [opened, setOpened] = useState<string | undefined>();
  const { count, bytes, maxCount, maxBytes } = state.cacheItems;
  useEffect(() => {
    if (!cache) return;
    let current = true;
    control<CacheItemList>('GET', `/_emulator/caches/${encodeURIComponent(cache)}/items?limit=${SHOWN}`).then(
      (list) => current && (setListed(list), setFailed(undefined)),
      (error: Error) => current && setFailed(error.message),
    );
    return () => {
      current = false;
    };
  }, [cache, count, bytes]);
  const set = onSubmit((form) => {
    const f = fieldsOf(form);
    if (!f.key) return;
    const ttlSeconds = numberField(f, 'ttlSeconds') ?? 300;
    void run('Set item', () =>
      changeItem('PUT', cache, { text: f.key!, base64: '' }, { text: f.value ?? '', ttlSeconds }),
    );
  });
  const items = listed?.cache === cache ? listed.items : [];
  return html`<${Panel} title="Cache" id="cache">
    <form class="row" aria-label="Choose a cache">
      <label
        >Cache
        <select
          name="cache"
          value=${cache}
          onChange=${(e: Event) => (setCache((e.target as HTMLSelectElement).value), setOpened(undefined))}
        >
          ${state.caches.map((c) => html`<option value=${c}>${c}</option>`)}
        </select></label
      >
    </form>
    <p class="status-line" data-testid="cache-usage">
      ${`${count.toLocaleString('en-US')} item(s), ${bytes.toLocaleString('en-US')} bytes across caches (at most ${maxCount.toLocaleString('en-US')} items, ${maxBytes.toLocaleString('en-US')} bytes)`}
    </p>
    <form class="grid-form" onSubmit=${set} aria-label="Set an item">
      <label>Key <input name="key" required maxlength="1024" /></label>
      <label>Value <input name="value" /></label>
      <label>TTL (s) <input name="ttlSeconds" type="number" min="1" max="31536000" defaultValue="300" /></label>
      <button type="submit">Set item</button>
    </form>
    ${
      failed
        ? html`<${Empty}>${failed}<//>`
        : items.length === 0
          ? html`<${Empty}>No items in ${cache}. Set one here, with the SDK's CacheClient or the cache HTTP API.<//>`
          : html`<${Table}
              columns=${['Key', 'Type', 'Bytes', 'Members', 'TTL left', { label: 'Delete', hidden: true }]}
              label="Items"
            >
              ${items.map(
                (item) =>
                  html`<tr data-key=${item.keyBase64}>
                    <td class="key">
                      <button type="button" class="link" onClick=${() => setOpened(item.keyBase64)}>
                        ${item.key ?? html`<code>${item.keyBase64}</code> (base64)`}
                      </button>
                    </td>
                    <td>${item.type}</td>
                    <td>${item.bytes}</td>
                    <td>${item.members ?? ''}</td>
                    <td>${ttlText(item.ttlRemainingMs)}</td>
                    <td>
                      <button
                        type="button"
                        onClick=${() =>
                          void run('Delete item', () =>
                            changeItem('DELETE', cache, { text: item.key, base64: item.keyBase64 }),
                          )}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>`,
              )}
            <//>`
    }
    ${
      opened
        ? html`<${CacheItem}
            cache=${cache}
            keyBase64=${opened}
            changes=${`${count}:${bytes}`}
            close=${() => setOpened(undefined)}
          />`
        : null
    }
    ${
      listed && listed.cache === cache && listed.count > items.length
        ? html`<p class="counter">
            ${`The first ${items.length} of ${listed.count}: `}<code
              >GET /_emulator/caches/${cache}/items?offset=${items.length}</code
            >
            for the rest.
          </p>`
        : null
    }
  <//>`;
}
