import type { Feed } from '../feed.js';
import { sizeOf, timeOf, valueLine } from '../format.js';
import { html } from '../html.js';
import { Empty, Panel, type TopicKey, Table } from './common.js';

// The messages of the selected topic, newest first: those it retained when selected (time
// unknown: "retained"), then the live ones; number, page, value (text, or hex of the first bytes
// of a binary value with its base64 on hover), size, time; markers where the stream is not
// continuous.

export function MessagesPanel({ selected, feed }: { selected: TopicKey | undefined; feed: Feed | undefined }) {
  const title = selected ? `Messages: ${selected.cache}/${selected.topic}` : 'Messages';
  if (!selected)
    return html`<${Panel} title=${title} id="messages"
      ><${Empty}>Select a topic, or publish to one, to follow its messages.<//><//
    >`;
  const rows = feed?.rows ?? [];
  return html`<${Panel} title=${title} id="messages">
    ${
      rows.length === 0
        ? html`<${Empty}>Nothing retained on this topic. Messages appear here as they are published.<//>`
        : html`<${Table}
            columns=${['#', { label: 'Page', className: 'opt' }, 'Value', { label: 'Size', className: 'opt' }, 'Time']}
            className="messages"
            label="Messages"
            wrap="table-wrap messages-wrap"
          >
            ${rows.map((row) => {
              // A marker's text spans the columns before the time: four, or two where a narrow
              // window hides the optional ones (one cell for each, the other hidden).
              if (row.kind === 'marker')
                return html`<tr key=${row.key} class=${`marker ${row.tone}`} data-marker=${row.tone}>
                  <td colspan="4" class="opt"><span class="marker-label">${row.text}</span></td>
                  <td colspan="2" class="narrow"><span class="marker-label">${row.text}</span></td>
                  <td class="time">${timeOf(row.at)}</td>
                </tr>`;
              const value = valueLine(row.value);
              return html`<tr key=${row.key} class="message" data-sequence=${row.sequenceNumber}>
                <td class="num">${row.sequenceNumber}</td>
                <td class="num opt">${row.page}</td>
                <td class=${`value ${value.kind}`} title=${value.base64 ? `base64: ${value.base64}` : undefined}>
                  ${value.kind === 'binary' ? html`<span class="tag">hex</span> ` : null}${value.shown}${row.truncated ? html` <span class="tag">…</span>` : null}
                </td>
                <td class="num opt">${sizeOf(row.size, value.kind)}</td>
                <td class="time">${row.at === undefined ? html`<span class="tag">retained</span>` : timeOf(row.at)}</td>
              </tr>`;
            })}
          <//>`
    }
  <//>`;
}
