import { useState } from 'preact/hooks';
import type { TopicState } from '../../openapi/generated/control-types.js';
import { control, publish, topicPath } from '../api.js';
import { html } from '../html.js';
import { Empty, fieldsOf, onSubmit, Panel, type TopicKey, type ViewProps, Table } from './common.js';

// Topics per cache (page, next number, retained range, waiting subscribers), the publish form
// and the page change of the selected topic.

const sameTopic = (a: TopicKey | undefined, b: TopicKey) => a?.cache === b.cache && a.topic === b.topic;

function retained(t: TopicState): string {
  return t.retainedCount === 0 ? 'none' : `#${t.firstSequenceNumber}–#${t.lastSequenceNumber} (${t.retainedCount})`;
}

export function TopicsPanel(props: ViewProps & { selected: TopicKey | undefined; select: (key: TopicKey) => void }) {
  const { state, selected, select } = props;
  const shown = state.topics.length;
  return html`<${Panel} title="Topics" id="topics">
    ${
      state.topicCount > shown
        ? html`<p class="note">
            The first ${shown.toLocaleString()} of ${state.topicCount.toLocaleString()} topics, in the order they were
            first used (<code>GET /_emulator/state?offset=${shown}</code> for the rest).
          </p>`
        : null
    }
    ${state.caches.map((cache) => {
      const topics = state.topics.filter((t) => t.cache === cache).sort((a, b) => a.topic.localeCompare(b.topic));
      return html`<div class="cache" key=${cache}>
        <h3>Cache <code>${cache}</code></h3>
        ${
          topics.length === 0
            ? html`<${Empty}>No topic yet: one appears when it is first published to or subscribed to.<//>`
            : html`<${Table}
                columns=${['Topic', { label: 'Page', className: 'opt' }, 'Next #', 'Retained', 'Waiting']}
                className="topics"
              >
                ${topics.map(
                  (t) =>
                    html`<tr key=${t.topic} class=${sameTopic(selected, t) ? 'selected' : ''}>
                      <td>
                        <button
                          class="link"
                          type="button"
                          aria-label=${`Show topic ${t.topic}`}
                          aria-pressed=${sameTopic(selected, t)}
                          onClick=${() => select(t)}
                        >
                          ${t.topic}
                        </button>
                      </td>
                      <td class="num opt">${t.page}</td>
                      <td class="num">${t.nextSequenceNumber}</td>
                      <td>${retained(t)}</td>
                      <td class="num">${t.waitingSubscribers}</td>
                    </tr>`,
                )}
              <//>`
        }
      </div>`;
    })}
    <${PublishForm} ...${props} />
    ${selected ? html`<${PageChange} key=${`${selected.cache}/${selected.topic}`} selected=${selected} run=${props.run} />` : null}
  <//>`;
}

function PublishForm({
  state,
  selected,
  select,
  run,
}: ViewProps & { selected: TopicKey | undefined; select: (key: TopicKey) => void }) {
  const [answer, setAnswer] = useState<string>('');
  const cache = selected?.cache ?? state.caches[0] ?? '';
  const submit = onSubmit((form) => {
    const fields = fieldsOf(form);
    const target = { cache: fields.cache ?? cache, topic: fields.topic ?? '' };
    if (!target.topic) return setAnswer('Name a topic.');
    void run('Publish', async () => {
      const result = await publish(target.cache, target.topic, (new FormData(form).get('message') as string) ?? '');
      setAnswer(
        result.status === 204
          ? `204: published to ${target.cache}/${target.topic}`
          : `${result.status} ${result.code ?? ''}${result.retryAfter ? ` (Retry-After: ${result.retryAfter})` : ''}: ${result.message ?? ''}`,
      );
      select(target);
    });
  });
  return html`<form class="publish" onSubmit=${submit} aria-label="Publish a message">
    <h3>Publish a message</h3>
    <div class="row">
      <label
        >Cache
        <select name="cache" key=${cache} defaultValue=${cache}>
          ${state.caches.map((c) => html`<option value=${c} selected=${c === cache}>${c}</option>`)}
        </select></label
      >
      <label
        >Topic
        <input
          name="topic"
          key=${selected?.topic ?? ''}
          defaultValue=${selected?.topic ?? 'greetings'}
          required
          maxlength="255"
      /></label>
    </div>
    <label>Message <textarea name="message" rows="2" placeholder="hello"></textarea></label>
    <div class="row">
      <button type="submit">Publish</button>
    </div>
    <p class="answer" role="status" aria-live="polite" data-testid="publish-answer">${answer}</p>
  </form>`;
}

/** A page change now (after a confirmation: its subscribers get a discontinuity), or later. */
function PageChange({ selected, run }: Pick<ViewProps, 'run'> & { selected: TopicKey }) {
  const [confirming, setConfirming] = useState(false);
  const changePage = () => {
    setConfirming(false);
    void run('Change page', () => control('POST', `/_emulator${topicPath(selected.cache, selected.topic)}/reset`));
  };
  return html`<section class="page-change" aria-label="Change the page">
    <h3>Change the page of ${selected.topic}</h3>
    ${
      confirming
        ? html`<span class="confirm" role="group" aria-label="Confirm the page change">
            Evict ${selected.cache}/${selected.topic}? Its subscribers get a discontinuity; numbering starts at 1 on a
            new page.
            <button type="button" class="danger" onClick=${changePage}>Confirm page change</button>
            <button type="button" onClick=${() => setConfirming(false)}>Cancel</button>
          </span>`
        : html`<div class="row">
            <button
              type="button"
              onClick=${() => setConfirming(true)}
              title=${`Evict and recreate ${selected.topic}: a new page, numbering from 1`}
            >
              Change page
            </button>
          </div>`
    }
    <${SchedulePageChange} selected=${selected} run=${run} />
  </section>`;
}

/** A page change later: after the message numbered N, or after some clock time. */
function SchedulePageChange({ selected, run }: Pick<ViewProps, 'run'> & { selected: TopicKey }) {
  const submit = onSubmit((form) => {
    const f = fieldsOf(form);
    const after = Number(f.after);
    const when = f.when === 'ms' ? { afterMs: after } : { afterSequenceNumber: after };
    void run('Schedule page change', () =>
      control('POST', `/_emulator${topicPath(selected.cache, selected.topic)}/reset`, when),
    );
  });
  return html`<form class="row" onSubmit=${submit} aria-label="Schedule a page change">
    <label
      >Change the page after
      <select name="when">
        <option value="sequence">message number</option>
        <option value="ms">clock milliseconds</option>
      </select></label
    >
    <label>Value <input name="after" type="number" min="1" required /></label>
    <button type="submit">Schedule page change</button>
  </form>`;
}
