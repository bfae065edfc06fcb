import { render } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Health, State, TopicMessages } from '../openapi/generated/control-types.js';
import type { ExchangeFacts } from '../emulator/exchange.js';
import { storeAdminKey, storedAdminKey } from './admin-key.js';
import { ApiError, control, curlOf, reportCalls, topicPath, type CallRecord } from './api.js';
import {
  addMarker,
  addPageChange,
  addPublished,
  addRetained,
  emptyFeed,
  type Feed,
  type PublishedEvent,
} from './feed.js';
import { html } from './html.js';
import { PublishedSinceReads, withPublished } from './state-updates.js';
import { LiveConnection, type LiveStatus } from './live.js';
import type { SseEvent } from './sse-parser.js';
import { CachePanel } from './views/cache.js';
import { ClientsPanel } from './views/clients.js';
import { ClockPanel } from './views/clock.js';
import type { TopicKey } from './views/common.js';
import { ChaosPanel, FaultsPanel } from './views/faults.js';
import { LimitsPanel } from './views/limits.js';
import { MessagesPanel } from './views/messages.js';
import { RequestsPanel } from './views/requests.js';
import { TokensPanel } from './views/tokens.js';
import { GlancePanel } from './views/glance.js';
import { TopicsPanel } from './views/topics.js';
import { WaitingPanel } from './views/waiting.js';

// The dashboard at /_emulator/ui: the state from GET /_emulator/state, kept current by the event
// stream (GET /_emulator/events); every action a documented call (api.ts).

const TABS = ['topics', 'waiting', 'cache', 'faults', 'limits', 'clock', 'tokens', 'requests', 'clients'] as const;
type Tab = (typeof TABS)[number];

interface Notice {
  ok: boolean;
  text: string;
  curl?: string;
}

const feedKey = (cache: string, topic: string) => `${cache}\n${topic}`;
/** State refreshes after events are coalesced: at most one every this many ms. */
const REFRESH_MS = 150;
/**
 * With a shared store (Redis), the other replicas' requests and waiting subscribers reach the page
 * as events passed on through Redis, but not all of them (past each replica's rate, or just after
 * the page connects): the state and the journal are read again this often (they gather every
 * replica) while the page is seen.
 */
const SHARED_REFRESH_MS = 2000;

function summaryOf(state: State): string {
  return [
    `Clock ${state.clock.mode === 'virtual' ? 'frozen' : 'real'}`,
    `${state.topicCount} topic(s)`,
    `${state.waitingSubscriberCount} waiting`,
    `${state.faults.length} fault(s)`,
    `chaos ${state.chaos.enabled ? 'on' : 'off'}`,
    `limits ${state.limits.enabled ? 'on' : 'off'}`,
  ].join(' · ');
}

function App() {
  const [state, setState] = useState<State | undefined>();
  const [fetchedAt, setFetchedAt] = useState(0);
  const [version, setVersion] = useState('');
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [needsKey, setNeedsKey] = useState(false);
  const [feeds, setFeeds] = useState<Map<string, Feed>>(new Map());
  const [selected, setSelected] = useState<TopicKey | undefined>();
  const [tab, setTab] = useState<Tab>('topics');
  const [notice, setNotice] = useState<Notice | undefined>();
  // An action's notice belongs to the view it was taken in.
  const openTab = (next: Tab) => {
    if (next !== tab) setNotice(undefined);
    setTab(next);
  };
  const [confirmingReset, setConfirmingReset] = useState(false);
  const [journalVersion, setJournalVersion] = useState(0);
  /** Counts the event stream's hellos: a reconnect reads the selected topic's retained messages again. */
  const [connections, setConnections] = useState(0);
  /** Whether the emulator's store is shared by several replicas (GET /_emulator/health), checked on each connection. */
  const [shared, setShared] = useState(false);
  const [now, setNow] = useState(Date.now());
  const lastCall = useRef<CallRecord | undefined>();
  const live = useRef<LiveConnection | undefined>();
  const pending = useRef<((feeds: Map<string, Feed>) => void)[]>([]);
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | undefined>();
  const journalTimer = useRef<ReturnType<typeof setTimeout> | undefined>();
  const connectedBefore = useRef(false);

  const askForKey = useCallback(() => {
    setNeedsKey(true);
    live.current?.stop();
  }, []);

  // Reads can overlap and answer out of order: only a read newer than the last one shown is shown,
  // with the messages published since it was sent (state-updates.ts).
  const reads = useRef({ sent: 0, shown: 0 });
  const [publishedSince] = useState(() => new PublishedSinceReads());
  const show = useCallback((next: State, read: number) => {
    if (read < reads.current.shown) return;
    reads.current.shown = read;
    setState(publishedSince.onto(next, read));
    setFetchedAt(Date.now());
  }, []);

  const refresh = useCallback(async () => {
    const read = ++reads.current.sent;
    try {
      show(await control<State>('GET', '/_emulator/state'), read);
    } catch (error) {
      if (error instanceof ApiError && error.needsAdminKey) askForKey();
    }
  }, [askForKey, show]);

  const scheduleRefresh = useCallback(() => {
    refreshTimer.current ??= setTimeout(() => {
      refreshTimer.current = undefined;
      void refresh();
    }, REFRESH_MS);
  }, [refresh]);

  // Feed updates of one animation frame are applied together: one render for a burst.
  const updateFeeds = useCallback((change: (feeds: Map<string, Feed>) => void) => {
    if (pending.current.push(change) > 1) return;
    requestAnimationFrame(() => {
      const changes = pending.current;
      pending.current = [];
      setFeeds((old) => {
        const next = new Map(old);
        for (const apply of changes) apply(next);
        return next;
      });
    });
  }, []);
  const markAll = useCallback(
    (tone: 'gap' | 'reconnect' | 'reset', text: string) =>
      updateFeeds((all) => {
        for (const [key, feed] of all) all.set(key, addMarker(feed, tone, text, Date.now()));
      }),
    [updateFeeds],
  );

  const onEvent = useCallback(
    (event: SseEvent) => {
      const data = JSON.parse(event.data) as Record<string, unknown>;
      switch (event.event) {
        case 'hello': {
          const hello = data as { version?: unknown; state: State };
          show(hello.state, ++reads.current.sent);
          setVersion(typeof hello.version === 'string' ? hello.version : '');
          if (connectedBefore.current)
            markAll('reconnect', 'Reconnected: anything published while disconnected is not shown');
          connectedBefore.current = true;
          setConnections((n) => n + 1);
          return;
        }
        case 'published': {
          const published = data as unknown as PublishedEvent;
          const key = feedKey(published.cache, published.topic);
          updateFeeds((all) => all.set(key, addPublished(all.get(key) ?? emptyFeed, published)));
          // The topic's row follows at once, not at the next read of the state.
          setState((old) => old && withPublished(old, published));
          publishedSince.arrived(published, reads.current.sent);
          setSelected((current) => current ?? { cache: published.cache, topic: published.topic });
          return scheduleRefresh();
        }
        case 'page-changed': {
          const key = feedKey(String(data.cache), String(data.topic));
          updateFeeds((all) =>
            all.set(key, addPageChange(all.get(key) ?? emptyFeed, data as { at: number; page: number })),
          );
          return scheduleRefresh();
        }
        case 'gap':
          markAll('gap', `${(data as { dropped: number }).dropped} event(s) not received: the dashboard fell behind`);
          return scheduleRefresh();
        case 'request': {
          const record = data.record as ExchangeFacts | undefined;
          // The dashboard's own reads must not make it read again.
          if (record?.plane === 'control' && record.method === 'GET') return;
          if (record?.plane === 'service') scheduleRefresh();
          journalTimer.current ??= setTimeout(() => {
            journalTimer.current = undefined;
            setJournalVersion((v) => v + 1);
          }, 500);
          return;
        }
        default:
          return scheduleRefresh();
      }
    },
    [markAll, scheduleRefresh, show, updateFeeds],
  );

  // With nothing selected, the first topic is: the live messages have something to follow.
  useEffect(() => {
    const first = state?.topics[0];
    if (first && !selected) setSelected({ cache: first.cache, topic: first.topic });
  }, [state, selected]);

  // The selected topic's retained messages, under the live ones (on selection and on each reconnect).
  const selectedCache = selected?.cache;
  const selectedTopic = selected?.topic;
  useEffect(() => {
    if (selectedCache === undefined || selectedTopic === undefined) return;
    let current = true;
    control<TopicMessages>('GET', `/_emulator${topicPath(selectedCache, selectedTopic)}/messages`).then(
      (retained) => {
        const key = feedKey(selectedCache, selectedTopic);
        if (current) updateFeeds((all) => all.set(key, addRetained(all.get(key) ?? emptyFeed, retained)));
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.needsAdminKey) askForKey();
      },
    );
    return () => {
      current = false;
    };
  }, [selectedCache, selectedTopic, connections, updateFeeds, askForKey]);

  useEffect(() => {
    reportCalls((call) => (lastCall.current = call));
    const connection = new LiveConnection({
      event: onEvent,
      status: (s) => {
        setStatus(s);
        if (s === 'needs-admin-key') setNeedsKey(true);
      },
    });
    live.current = connection;
    void refresh();
    connection.start();
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => {
      connection.stop();
      clearInterval(tick);
    };
  }, [onEvent, refresh]);

  // A restart may change the store: asked again on each connection.
  useEffect(() => {
    let current = true;
    control<Health>('GET', '/_emulator/health').then(
      (health) => current && setShared(health.store.kind === 'redis'),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [connections]);

  useEffect(() => {
    if (!shared) return;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      void refresh();
      setJournalVersion((v) => v + 1);
    }, SHARED_REFRESH_MS);
    return () => clearInterval(timer);
  }, [shared, refresh]);

  const run = useCallback(
    async (label: string, action: () => Promise<unknown>): Promise<boolean> => {
      lastCall.current = undefined;
      try {
        await action();
        const call = lastCall.current as CallRecord | undefined;
        setNotice({ ok: true, text: `${label}: done.`, ...(call ? { curl: curlOf(call) } : {}) });
        scheduleRefresh();
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.needsAdminKey) askForKey();
        const text =
          error instanceof ApiError
            ? `${error.status} ${error.code ?? ''}: ${error.message}`
            : String((error as Error).message ?? error);
        const call = lastCall.current as CallRecord | undefined;
        setNotice({ ok: false, text: `${label} failed: ${text}`, ...(call ? { curl: curlOf(call) } : {}) });
        return false;
      }
    },
    [askForKey, scheduleRefresh],
  );

  const submitKey = (event: Event) => {
    event.preventDefault();
    const key = new FormData(event.currentTarget as HTMLFormElement).get('adminKey');
    storeAdminKey(typeof key === 'string' && key !== '' ? key : undefined);
    setNeedsKey(false);
    void refresh();
    live.current?.start();
  };

  const reset = async () => {
    setConfirmingReset(false);
    if (await run('Reset emulator', () => control('POST', '/_emulator/reset')))
      markAll('reset', 'Emulator reset: topics, faults and the clock are back to a clean start');
  };

  const props = state && { state, run };
  const counts: Partial<Record<Tab, number>> = state
    ? {
        waiting: state.waitingSubscriberCount,
        cache: state.cacheItems.count,
        faults: state.faults.length + (state.chaos.enabled ? 1 : 0),
      }
    : {};
  const labels: Record<Tab, string> = {
    topics: 'Topics & messages',
    waiting: 'Waiting subscribers',
    cache: 'Cache',
    faults: 'Faults & chaos',
    limits: 'Limits',
    clock: 'Clock',
    tokens: 'Tokens',
    requests: 'Requests',
    clients: 'Clients',
  };
  const statusText: Record<LiveStatus, string> = {
    connecting: 'Connecting…',
    live: 'Live',
    reconnecting: 'Reconnecting…',
    'needs-admin-key': 'Needs the admin key',
  };

  return html`
    <header class="top">
      <h1>topics-emulator <span class="version">${version}</span></h1>
      <span class=${`pill ${status}`} role="status" aria-live="polite" data-testid="live-status"
        >${statusText[status]}</span
      >
      ${state ? html`<span class="summary">${summaryOf(state)}${shared ? ' · shared store' : ''}</span>` : null}
      <span class="spacer"></span>
      ${
        confirmingReset
          ? html`<span class="confirm" role="group" aria-label="Confirm the reset">
              Clear topics, faults, chaos draws, limits' counters, the request journal and the clock?
              <button type="button" class="danger" onClick=${reset}>Confirm reset</button>
              <button type="button" onClick=${() => setConfirmingReset(false)}>Cancel</button>
            </span>`
          : html`<button type="button" class="danger" onClick=${() => setConfirmingReset(true)}>Reset emulator</button>`
      }
    </header>
    ${
      needsKey
        ? html`<form class="admin-key" onSubmit=${submitKey} aria-label="Admin key">
            <p>This emulator has an admin key: the control plane answers only with it. It is kept for this tab only.</p>
            <label
              >Admin key
              <input name="adminKey" type="password" autocomplete="off" required defaultValue=${storedAdminKey() ?? ''}
            /></label>
            <button type="submit">Use admin key</button>
          </form>`
        : null
    }
    <nav class="tabs" aria-label="Views">
      ${TABS.map(
        (t) =>
          html`<button
            type="button"
            class=${t === tab ? 'tab current' : 'tab'}
            data-tab=${t}
            aria-current=${t === tab ? 'page' : undefined}
            onClick=${() => openTab(t)}
          >
            ${labels[t]}${counts[t] ? html` <span class="count">${counts[t]}</span>` : null}
          </button>`,
      )}
    </nav>
    ${
      notice
        ? html`<div
            class=${`notice ${notice.ok ? 'ok' : 'failed'}`}
            role="status"
            aria-live="polite"
            data-testid="notice"
          >
            <span>${notice.text}</span
            >${notice.curl ? html`<code class="curl" title="The same call with curl">${notice.curl}</code>` : null}
          </div>`
        : null
    }
    <main>
      ${
        !props
          ? html`<p class="empty">
              ${needsKey ? 'Enter the admin key to see the emulator.' : 'Loading the emulator state…'}
            </p>`
          : tab === 'topics'
            ? html`<div class="split">
                <div class="stack">
                  <${TopicsPanel} ...${props} selected=${selected} select=${setSelected} /><${GlancePanel}
                    state=${props.state}
                    open=${(t: string) => openTab(t as Tab)}
                  />
                </div>
                <${MessagesPanel}
                  selected=${selected}
                  feed=${selected && feeds.get(feedKey(selected.cache, selected.topic))}
                />
              </div>`
            : tab === 'waiting'
              ? html`<${WaitingPanel} ...${props} fetchedAt=${fetchedAt} now=${now} />`
              : tab === 'cache'
                ? html`<${CachePanel} ...${props} />`
                : tab === 'faults'
                  ? html`<div class="split wide-left"><${FaultsPanel} ...${props} /><${ChaosPanel} ...${props} /></div>`
                  : tab === 'limits'
                    ? html`<${LimitsPanel} ...${props} />`
                    : tab === 'clock'
                      ? html`<${ClockPanel} ...${props} />`
                      : tab === 'tokens'
                        ? html`<${TokensPanel} ...${props} />`
                        : tab === 'requests'
                          ? html`<${RequestsPanel} version=${journalVersion} />`
                          : html`<${ClientsPanel} version=${journalVersion} />`
      }
    </main>
  `;
}

render(html`<${App} />`, document.getElementById('app')!);
