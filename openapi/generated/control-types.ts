// Generated from openapi/control.yaml by 'npm run openapi:compile' (scripts/compile-types.ts). Do not edit.
export interface paths {
    "/_emulator/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** 200 once the emulator is ready (every door it was asked for serves); 503 while it starts or while its store is lost. */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/tls/ca.pem": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The local certificate authority's certificate, to trust the HTTPS port.
         * @description With `--https-port`, the emulator serves the same API over TLS with a certificate for `localhost`, `*.localhost`, `api.cache.localhost`, `api.cache.<host of --endpoint>` and the loopback addresses, signed by a local authority it creates once and keeps (`--tls-dir`). Trust this certificate (PEM) once, in Node with `NODE_EXTRA_CA_CERTS`, in the system store or a browser's, and every certificate the emulator signs is trusted. It is public: no admin key. 404 `route_not_found` while the HTTPS port is off, or when it serves your own certificate (`--tls-cert`).
         */
        get: operations["getTlsAuthority"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Back to a clean start, without a restart.
         * @description Topics, retained messages, waiting subscribers (answered `{"items": []}` at once),
         *     token withdrawals (scheduled ones too), fault rules, chaos draws, scheduled page
         *     changes, limit counters and the clock (back to real time) all return to how they were
         *     just after start-up. What the configuration set stays or is restored: caches, API keys,
         *     the limits profile, chaos from `--chaos-seed` (restarted, so its draws replay), and the
         *     `--scenario` file (applied again, its times counted from the reset).
         */
        post: operations["reset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Everything the emulator holds now.
         * @description With a Redis store, `waitingSubscribers` lists those of every replica, each with the replica that holds it (x-emulator-gathered-reads). The two lists that grow with use, `topics` and `waitingSubscribers`, come a page at a time (StatePage: at most `limit` of each, default 10,000, after skipping `offset`); `topicCount` and `waitingSubscriberCount` say how many there are in all, so a reader of a large state asks again with `offset` + `limit` until it has them all.
         */
        get: operations["getState"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What happens in the emulator, live, as server-sent events (the dashboard's feed).
         * @description A `text/event-stream` that stays open (`curl -N`). It starts with `retry:` and a `hello`
         *     message, then sends one message per event as it happens. Each message has an `id`
         *     (counting the messages of this connection from 1), an `event` name (the kind below)
         *     and one line of JSON `data`: the event itself, with its `kind`. A comment line
         *     (`: heartbeat`) comes every 15 s. Kinds:
         *
         *     - `hello`: `{version, state}`, `state` as answered by GET /_emulator/state; sent once, first.
         *     - `published`: `{at, cache, topic, page, sequenceNumber, value, size, truncated}`: a
         *       message was numbered and retained. `value` is `{text}` or `{binary}` (base64), cut to
         *       a preview of 512 characters (`truncated`); `size` is the whole value's characters
         *       (text) or bytes (binary).
         *     - `page-changed`: `{at, cache, topic, page}`: the topic was evicted and recreated on `page`.
         *     - `waiting`: `{at, cache, topic, waiting}`: how many subscribers wait on the topic now
         *       (changes within one turn of the event loop are sent once, with the last count).
         *     - `control`: `{at, operationId}`: a control operation changed something (from HTTP, the
         *       programmatic API or a scenario).
         *     - `request`: `{at, record}`: a request was answered (the request journal's record).
         *     - `gap`: `{dropped}`: this reader fell behind and `dropped` events were not sent.
         *
         *     `at` is the emulator's clock (ms since the epoch). With a shared store (Redis), the
         *     stream says what happens on every replica (x-emulator-event-stream-replicas), and
         *     `request` and `waiting` carry the `replica` they happened on; a `waiting` count is that
         *     replica's.
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign a token with the given permissions.
         * @description The token is in the provider's portable format (base64 of `{"api_key": "<jwt>",
         *     "endpoint": "<host:port>"}`) and expires `ttlSeconds` after the emulator's clock reading,
         *     so advancing a virtual clock expires it.
         */
        post: operations["issueToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/tokens/{tokenId}/expire": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token id given when the token was issued. */
                tokenId: components["parameters"]["tokenId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Every token with this id expires now (or after `afterMs` of clock time).
         * @description Later requests with such a token answer 401 `expired_token`, and what such a token opened ends then: a waiting long-poll answers 401, a gRPC subscription stream ends UNAUTHENTICATED (`decidedBy: {kind: token}` in the journal); revokeToken likewise, with `invalid_token`.
         */
        post: operations["expireToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/tokens/{tokenId}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token id given when the token was issued. */
                tokenId: components["parameters"]["tokenId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Every token with this id is revoked now (or after `afterMs` of clock time).
         * @description Later requests with such a token answer 401 `invalid_token`.
         */
        post: operations["revokeToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/topics/{cacheName}/{topicName}/reset": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cacheName: components["parameters"]["cacheName"];
                topicName: components["parameters"]["topicName"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The topic is evicted and recreated (a page change), now or when scheduled.
         * @description The topic gets a new, greater page; numbering restarts at 1 and retained messages are
         *     gone. Subscribers waiting on it keep waiting, and are answered with a discontinuity
         *     carrying the new page together with its first message (at once and alone with
         *     `--discontinuity alone`; see x-emulator-discontinuity in topics.yaml). With `afterSequenceNumber` K the change happens right after the message
         *     numbered K is published (K is delivered first); with `afterMs` once the clock has moved
         *     that far. A topic that does not exist yet is created. One schedule per topic: a new one
         *     replaces the old.
         */
        post: operations["resetTopic"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/topics/{cacheName}/{topicName}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cacheName: components["parameters"]["cacheName"];
                topicName: components["parameters"]["topicName"];
            };
            cookie?: never;
        };
        /**
         * A topic's retained messages, oldest first (what a subscriber could still read).
         * @description The messages the topic still retains (at most `--retention` of them, all on its current
         *     page), oldest first, with the number its next message gets. Values are previews, as on the
         *     event stream: `{text}` or `{binary}` (base64) cut to 512 characters (`truncated`), with
         *     `size` the whole value's characters (text) or bytes (binary). Reading a topic that does
         *     not exist yet creates nothing: it answers no messages, `page` null and
         *     `nextSequenceNumber` 1. The dashboard shows these when a topic is selected, then the live
         *     ones. For example `curl localhost:4545/_emulator/topics/default-cache/orders/messages`.
         */
        get: operations["listTopicMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/caches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caches there are, in the order they were made.
         * @description The same caches the SDK's `CacheClient.listCaches` lists (one operation for both doors):
         *     the configured ones (`--cache`) and any made since, by this route or the SDK's
         *     `createCache`. For example `curl localhost:4545/_emulator/caches`.
         */
        get: operations["listCaches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/caches/{cacheName}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cacheName: components["parameters"]["cacheName"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Make a cache (nothing changes if it exists).
         * @description What the SDK's `CacheClient.createCache` does: 201 when made, 200 when it was there
         *     already. At most 1,000 caches (429). With a Redis store it is made for every replica (a
         *     replica started later included). A reset comes back to the configured caches.
         */
        put: operations["createCache"];
        post?: never;
        /**
         * Delete a cache, its topics and its items.
         * @description What the SDK's `CacheClient.deleteCache` does: its waiting subscribers are answered,
         *     its SDK streams end (`NOT_FOUND`), its scheduled page changes are cancelled, its items
         *     are gone. 404 when there is no such cache.
         */
        delete: operations["deleteCache"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/caches/{cacheName}/items": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cacheName: components["parameters"]["cacheName"];
            };
            cookie?: never;
        };
        /**
         * A cache's items, a page at a time (the dashboard's Cache view).
         * @description The cache's live items in the order they were set: each key (as text when its bytes are UTF-8, always as base64), its type, the bytes it holds, a collection's member count and the TTL it has left; `count` says how many there are in all. For example `curl 'localhost:4545/_emulator/caches/default-cache/items?limit=20'`.
         */
        get: operations["listCacheItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/caches/{cacheName}/items/{keyBase64}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cacheName: components["parameters"]["cacheName"];
                /** @description The item's key as base64 of its bytes (standard or URL-safe), as listCacheItems gives it. */
                keyBase64: string;
            };
            cookie?: never;
        };
        /**
         * One cache item, a collection's members a page at a time (the dashboard's Cache view).
         * @description The item as listCacheItems shows it, with a scalar's value (as text when its bytes are UTF-8, always as base64) or a page of a collection's members in their order (a dictionary's fields with their values, a set's elements, a list's values, a sorted set's elements by rank with their scores). For example `curl 'localhost:4545/_emulator/caches/default-cache/items/Z3JlZXRpbmc=?limit=20'`.
         */
        get: operations["getCacheItem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/caches/{cacheName}/flush": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cacheName: components["parameters"]["cacheName"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remove every item of a cache (its topics stay).
         * @description What the SDK's `CacheClient.flushCache` does: the cache's items are gone, its topics,
         *     messages and subscribers are left as they are. 404 when there is no such cache.
         */
        post: operations["flushCache"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/clock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The clock's mode and reading. */
        get: operations["getClock"];
        put?: never;
        /**
         * Freeze, set, advance the clock, or go back to real time.
         * @description The clock drives token expiry, long-poll timeouts, rate-limit windows, scheduled page
         *     changes, token withdrawals and time-bound fault rules. Advancing past a waiting
         *     long-poll's timeout answers it at once. Members apply in the order mode, setTo,
         *     advanceMs: `{"mode": "virtual"}` freezes the clock at its reading, `{"setTo": ...}` sets
         *     it (and freezes it), `{"advanceMs": N}` moves it forward (in real mode, as an offset),
         *     `{"mode": "real"}` returns to the wall clock.
         */
        post: operations["setClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/faults": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The active fault rules, oldest first. */
        get: operations["listFaults"];
        put?: never;
        /**
         * Add a fault rule; the answer carries its id.
         * @description For example `{"operation": "publish", "cache": "c", "topic": "t", "status": 429,
         *     "retryAfterSeconds": 1, "count": 1}` makes the next publish to c/t answer 429 with
         *     `Retry-After: 1`. A rule whose `count` is used up is removed.
         */
        post: operations["addFault"];
        /** Remove every fault rule. */
        delete: operations["clearFaults"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/faults/{faultId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                faultId: components["parameters"]["faultId"];
            };
            cookie?: never;
        };
        /** One fault rule. */
        get: operations["getFault"];
        put?: never;
        post?: never;
        /** Remove one fault rule; answers the rule as it was. */
        delete: operations["removeFault"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account limits profile and its current usage. */
        get: operations["getLimits"];
        /** Switch the account limits on or off, or tune them. */
        put: operations["setLimits"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/chaos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether seeded chaos is on, with its seed and counts. */
        get: operations["getChaos"];
        /**
         * Start seeded chaos (replacing any running chaos).
         * @description Each matching service request draws from a PRNG seeded with `seed`: with probability
         *     `rate` it gets one of `kinds`, also drawn. The same seed and the same sequence of
         *     requests give the same faults, so a failing client test replays exactly; the seed is in
         *     every chaos log line.
         */
        put: operations["startChaos"];
        post?: never;
        /** Stop chaos. */
        delete: operations["stopChaos"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/scenario": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply a scenario (JSON or YAML) now.
         * @description Adds what the scenario describes to what is already there (reset first for a clean
         *     slate). Times in it count from now, on the emulator's clock. Order: clock, topics
         *     (their messages published in order, numbered as any publish), limits, chaos, faults,
         *     topic resets, token withdrawals.
         */
        post: operations["applyScenario"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The whole state as one JSON document (a snapshot).
         * @description Topics (page, next number and every retained message, text or binary, byte for byte),
         *     scheduled page changes, fault rules with their counters, chaos with its draws, the
         *     limits profile, the clock and token withdrawals (applied and scheduled). Loaded back
         *     with PUT, by `--state-file` at start, or by another emulator. Waiting subscribers,
         *     cached token verdicts and the current one-second limits window are not in it.
         */
        get: operations["getSnapshot"];
        /**
         * Replace the whole state with a snapshot.
         * @description The snapshot is checked completely first (its schema, then its own consistency: every
         *     topic in a configured cache and named once, messages numbered without gaps up to
         *     `nextSequenceNumber - 1`, fault ids unique, every time one the clock can show); a bad
         *     one answers 400 `invalid_body` naming what is wrong, and nothing changes. Then, like a
         *     reset, every waiting subscriber is answered `{"items": []}` at once and every schedule
         *     is cancelled, and the snapshot's state takes the place of the current one. The configuration (caches, keys, the
         *     `--scenario` file) is not in a snapshot and stays.
         */
        put: operations["loadSnapshot"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Metrics in the Prometheus text format.
         * @description Counters since start (a reset does not zero them): requests by plane, operation and
         *     status, publishes, deliveries (items delivered), discontinuities answered, faults fired
         *     (requests a fault rule or chaos decided); gauges read at scrape: waiting long-polls, topics, retained
         *     messages; a histogram of wake-up latency, from a publish to a waiting subscriber's
         *     answer. Plus the process's own metrics (CPU, memory, event-loop lag) under
         *     `topics_emulator_process_` and `topics_emulator_nodejs_`.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The request journal, newest first, filtered.
         * @description Every request the service routes and the control plane answered, as plain facts: clock
         *     time, operation, cache, topic, cursor, who called (a token id or a short digest, never the
         *     credential), where the credential was, status, error code, `Retry-After`, the items and
         *     discontinuity a subscribe got, whether the connection was dropped or the client went away,
         *     and durations. For example `GET /_emulator/requests?operation=subscribe&status=429&limit=5`.
         */
        get: operations["listRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/requests/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * How many journalled requests match (a WireMock-style verification).
         * @description For example `{"operation": "publish", "cache": "c", "topic": "t", "status": 204}`
         *     answers `{"count": 1}` after exactly one successful publish to c/t.
         */
        post: operations["countRequests"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_emulator/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Each client seen in the journal, judged by the client rules.
         * @description Per client (credential identity): its subscriptions (chains of polls on one topic,
         *     followed by cursor continuity), counters, and each rule's result: how often it was
         *     exercised and every violation, with the rule's level (`contract`, `harm` or `advice`), the
         *     sentence it rests on, and the journalled requests that show it.
         */
        get: operations["listClients"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Health: {
            /**
             * @description `ok`; `starting` until every door the settings ask for serves (the HTTPS port with its local authority made, the gRPC port listening); `unavailable` while the store is lost.
             * @enum {unknown}
             */
            status: "ok" | "starting" | "unavailable";
            version: string;
            /** @description Where the topics live and whether it can be reached now. */
            store: {
                /** @enum {unknown} */
                kind: "memory" | "redis";
                up: boolean;
            };
        };
        ResourceName: string;
        TokenId: string;
        /** @description Milliseconds of the emulator's clock (virtual when frozen). */
        DurationMs: number;
        /**
         * @description Which service operation a rule applies to.
         * @enum {unknown}
         */
        Operation: "publish" | "subscribe" | "any";
        Removed: {
            removed: number;
        };
        ResetResult: {
            /** @description Waiting subscribers answered `{"items": []}` by the reset. */
            answeredSubscribers: number;
            removedFaults: number;
            clock: components["schemas"]["Clock"];
        };
        /** @description A topic role (`publishsubscribe`, `subscribeonly`, `publishonly`) on topics, narrowed by `topic` or `topicPrefix`; or a cache role (`readwrite`, `readonly`, `writeonly`) on the cache's items, narrowed by `key` or `keyPrefix` (as the provider's permission scopes). A topic role grants nothing on items and a cache role nothing on topics. */
        Permission: {
            /** @enum {unknown} */
            role: "publishsubscribe" | "subscribeonly" | "publishonly" | "readwrite" | "readonly" | "writeonly";
            /** @description A cache name, or `*` for every cache. */
            cache: string;
            /** @description A topic name, or `*` (the default) for every topic. Topic roles only. */
            topic?: string;
            /** @description Instead of `topic`, every topic whose name starts with this. Topic roles only. */
            topicPrefix?: string;
            /** @description One item key (as UTF-8 text); every key when absent. Cache roles only. */
            key?: string;
            /** @description Instead of `key`, every key that starts with this. Cache roles only. */
            keyPrefix?: string;
        };
        TokenRequest: {
            permissions: components["schemas"]["Permission"][];
            /**
             * @description Lifetime in seconds, at most 25 hours (disposable tokens must expire).
             * @default 3600
             */
            ttlSeconds?: number;
            tokenId?: components["schemas"]["TokenId"];
        };
        IssuedToken: {
            /** @description The portable token (base64 of `{"api_key", "endpoint"}`). */
            token: string;
            /** Format: date-time */
            expiresAt: string;
            tokenId?: components["schemas"]["TokenId"];
        };
        WithdrawalInput: {
            afterMs?: components["schemas"]["DurationMs"];
        };
        TokenWithdrawal: {
            tokenId: components["schemas"]["TokenId"];
            /** @enum {unknown} */
            how: "expired" | "revoked";
            /**
             * Format: date-time
             * @description Clock time at which it takes (took) effect.
             */
            at: string;
            /** @description True while it waits for the clock to reach `at`. */
            scheduled: boolean;
        };
        TopicResetInput: {
            /** @description Change the page right after the message with this number is published. */
            afterSequenceNumber?: number;
            afterMs?: components["schemas"]["DurationMs"];
        };
        TopicReset: {
            cache: string;
            topic: string;
            previousPage: number;
            page: number;
        };
        ScheduledTopicReset: {
            cache: string;
            topic: string;
            /** @description The topic's current page (it changes when the schedule fires). */
            page: number;
            afterSequenceNumber?: number;
            /** Format: date-time */
            at?: string;
        };
        ClockInput: {
            /**
             * @description `virtual` freezes the clock at its reading; `real` returns to the wall clock (no offset).
             * @enum {unknown}
             */
            mode?: "real" | "virtual";
            /**
             * @description An ISO 8601 time or epoch milliseconds; the clock is frozen there. At most
             *     8639936838000000: the last Date less two years and 25 hours, so every time scheduled
             *     from the clock (rule windows, token lifetimes) is still a valid Date.
             */
            setTo?: string | number;
            advanceMs?: components["schemas"]["DurationMs"];
        } & unknown;
        Clock: {
            /** @enum {unknown} */
            mode: "real" | "virtual";
            /** Format: date-time */
            now: string;
            nowMs: number;
            /** @description Timers waiting on the clock (long-poll timeouts, schedules). */
            pendingTimers: number;
        };
        /**
         * @description A fault rule: which requests it matches, what it does to them, how often.
         *     Matching: `operation` (default any), `cache`, `topic` or `topicPrefix`, `tokenId`
         *     (the id of a token the emulator signed), `protocol` (default both: `http` for the HTTP
         *     API, `grpc` for the provider's SDKs). Effect: `status` (with `code`, `message`,
         *     `retryAfterSeconds`), `drop` (the connection is destroyed without an answer), and/or
         *     `delayMs` (real time, before the effect or before normal handling). How often: `skip`
         *     matching requests first, then each with `probability` (replayable with `seed`), at most
         *     `count` times (absent: until removed), from `startAfterMs` for `durationMs` of clock
         *     time. Subscribe only: `afterItems` N lets N items through to matching subscribes (the
         *     response that crosses N is cut to exactly N), then the rule applies; `whileWaiting`
         *     answers a matching subscribe that has waited `waitedMs` of clock time (including
         *     requests already waiting when the rule is added).
         */
        FaultRuleInput: {
            operation?: components["schemas"]["Operation"];
            /** @enum {unknown} */
            protocol?: "http" | "grpc";
            cache?: components["schemas"]["ResourceName"];
            topic?: components["schemas"]["ResourceName"];
            topicPrefix?: string;
            tokenId?: components["schemas"]["TokenId"];
            /**
             * @description An error status of the contract's table, or 503 for an outage.
             * @enum {unknown}
             */
            status?: 400 | 401 | 403 | 404 | 429 | 500 | 503;
            /**
             * @description The error code in the body; it must belong to `status` (default: 400
             *     invalid_request, 401 invalid_token, 403 permission_denied, 404 cache_not_found,
             *     429 limit_exceeded, 500 internal_error, 503 service_unavailable).
             * @enum {unknown}
             */
            code?: "invalid_request" | "invalid_parameter" | "missing_token" | "invalid_token" | "expired_token" | "permission_denied" | "cache_not_found" | "limit_exceeded" | "internal_error" | "service_unavailable";
            message?: string;
            /** @description The `Retry-After` header (429 answers carry `Retry-After: 1` by default). */
            retryAfterSeconds?: number;
            /**
             * @description Destroy the connection without answering.
             * @constant
             */
            drop?: true;
            /** @description Real milliseconds to hold the request (abandoned if the client leaves or the emulator resets). */
            delayMs?: number;
            afterItems?: number;
            /** @constant */
            whileWaiting?: true;
            waitedMs?: components["schemas"]["DurationMs"];
            skip?: number;
            count?: number;
            probability?: number;
            /** @description Seed of the rule's PRNG (mulberry32); a random one is chosen and shown when absent. */
            seed?: number;
            startAfterMs?: components["schemas"]["DurationMs"];
            /** @description Clock milliseconds after which the rule is removed (counted from when it starts). */
            durationMs?: number;
        } & ((unknown | unknown | unknown) & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown);
        Fault: {
            id: string;
            rule: components["schemas"]["FaultRuleInput"];
            /** @description False before `startAfterMs` has passed, and while `afterItems` items are still being let through. */
            armed: boolean;
            /** @description Items let through so far (rules with `afterItems`). */
            delivered?: number;
            /** @description Matching requests considered while armed. */
            matched: number;
            fired: number;
            /** @description Times it may still fire; null when unbounded. */
            remaining: number | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            endsAt?: string;
            /**
             * Format: date-time
             * @description When it ended by itself (rules listed as ended only).
             */
            endedAt?: string;
            /** @description Why it ended (`its count of 3 is used up`, `its duration of 5000 ms ended`). */
            endedBecause?: string;
        };
        FaultList: {
            faults: components["schemas"]["Fault"][];
            /** @description Rules that ended by themselves (their count used up, their duration over), newest first, with how often they fired, until the rules are cleared (DELETE /_emulator/faults) or the emulator reset; at most 100. A rule removed on request is not listed. */
            ended: components["schemas"]["Fault"][];
        };
        LimitsInput: {
            enabled?: boolean;
            operationsPerSecond?: number;
            concurrentSubscriptions?: number;
        };
        Limits: {
            enabled: boolean;
            operationsPerSecond: number;
            concurrentSubscriptions: number;
            /** @description The hard payload limit (`--payload-limit`, 413); not changed here. */
            payloadBytes: number;
            usage: {
                /** Format: date-time */
                windowStartedAt: string;
                /** @description Operations counted in the current one-second window, summed over the caches (each has its own limit). With a Redis store: the whole emulator's, read from Redis (GET answers 503 while Redis is out of reach; the answer to PUT, and the in-process API's `limits()`, then show them as this replica last saw them). */
                operations: number;
                /** @description Subscribe requests waiting now, summed over the caches (each has its own limit), counted from admission until the answer has left. With a Redis store: every live replica's, read from Redis (while Redis is out of reach, the answer to PUT shows this replica's, as the in-process API's `limits()` always does). */
                subscriptions: number;
            };
        };
        /**
         * @description `throttle`: 429 limit_exceeded with Retry-After 1. `error`: 500 internal_error.
         *     `outage`: 503 service_unavailable with Retry-After 1. `delay`: a real delay of up to
         *     `maxDelayMs`, then normal handling. `drop`: the connection is destroyed.
         *     `pageChange`: the addressed topic changes page, then normal handling.
         * @enum {unknown}
         */
        ChaosKind: "throttle" | "error" | "outage" | "delay" | "drop" | "pageChange";
        ChaosInput: {
            seed: number;
            /**
             * @description Probability that a matching request gets a fault.
             * @default 0.1
             */
            rate?: number;
            /**
             * @default [
             *       "throttle",
             *       "error",
             *       "outage",
             *       "delay",
             *       "drop",
             *       "pageChange"
             *     ]
             */
            kinds?: components["schemas"]["ChaosKind"][];
            operation?: components["schemas"]["Operation"];
            cache?: components["schemas"]["ResourceName"];
            topic?: components["schemas"]["ResourceName"];
            /** @default 2000 */
            maxDelayMs?: number;
        };
        Chaos: {
            enabled: boolean;
            seed?: number;
            rate?: number;
            kinds?: components["schemas"]["ChaosKind"][];
            operation?: components["schemas"]["Operation"];
            cache?: string;
            topic?: string;
            maxDelayMs?: number;
            /** @description Matching requests that drew so far. */
            draws?: number;
            /** @description Faults injected so far. */
            injected?: number;
        };
        CacheList: {
            caches: string[];
        };
        CacheChange: {
            cache: string;
            /** @description Whether this request made (or deleted) the cache; false when it was there already. */
            changed: boolean;
        };
        TopicState: {
            cache: string;
            topic: string;
            page: number;
            /** @description Oldest retained message's number; null when none is retained. */
            firstSequenceNumber: number | null;
            lastSequenceNumber: number | null;
            retainedCount: number;
            nextSequenceNumber: number;
            /** @description Subscribers waiting on the topic now; with a Redis store, on every replica (as `waitingSubscribers` of the state lists them). */
            waitingSubscribers: number;
        };
        WaitingSubscriberState: {
            /** @description With a Redis store, the replica that holds the waiting request (`r<ordinal>`). */
            replica?: string;
            cache: string;
            topic: string;
            sequenceNumber: number;
            sequencePage: number;
            /** @description Clock milliseconds it has waited. */
            waitedMs: number;
            /**
             * Format: date-time
             * @description The clock's reading when it started waiting.
             */
            since: string;
            /** @description Who waits, named as the request events' `client` names a caller, never by the credential: `token:<tokenId>`, `token:#<digest>` for a token without id, `key:#<digest>` for an API key (the first 12 hex digits of the credential's SHA-256). */
            client: string | null;
        };
        /** @description Which part of the state's long lists (`topics`, `waitingSubscribers`) a read answers: at most `limit` of each, after the first `offset`. */
        StatePage: {
            /** @default 10000 */
            limit?: number;
            /** @default 0 */
            offset?: number;
        };
        State: {
            caches: string[];
            /** @description The cache's items now, scalars and collections (this replica's memory): how many, and the bytes their keys and values (a collection's members) hold, beside the bounds that refuse more (x-emulator-cache-bounds). */
            cacheItems: {
                count: number;
                bytes: number;
                maxCount: number;
                maxBytes: number;
            };
            /** @description The topics of the page asked for (StatePage), in the order they were first used. */
            topics: components["schemas"]["TopicState"][];
            /** @description How many topics there are in all. */
            topicCount: number;
            /** @description The waiting subscribers of the page asked for (StatePage). */
            waitingSubscribers: components["schemas"]["WaitingSubscriberState"][];
            /** @description How many subscribers wait in all. */
            waitingSubscriberCount: number;
            faults: components["schemas"]["Fault"][];
            /** @description The rules that ended by themselves, as `ended` in GET /_emulator/faults. */
            endedFaults: components["schemas"]["Fault"][];
            scheduled: {
                topicResets: components["schemas"]["ScheduledTopicReset"][];
                tokenWithdrawals: components["schemas"]["TokenWithdrawal"][];
            };
            limits: components["schemas"]["Limits"];
            chaos: components["schemas"]["Chaos"];
            clock: components["schemas"]["Clock"];
        };
        ScenarioTopicReset: {
            cache: components["schemas"]["ResourceName"];
            topic: components["schemas"]["ResourceName"];
            afterSequenceNumber?: number;
            afterMs?: components["schemas"]["DurationMs"];
        };
        ScenarioTokenWithdrawal: {
            tokenId: components["schemas"]["TokenId"];
            /** @enum {unknown} */
            action: "expire" | "revoke";
            afterMs?: components["schemas"]["DurationMs"];
        };
        /**
         * @description A scenario: what should go wrong, and when, in one file. For example "topic t resets
         *     after message 5; the 3rd subscribe on t gets 429 with Retry-After 1; token X expires at
         *     +30 s" (fixtures/scenarios/). Times count from when the scenario is applied.
         */
        Scenario: {
            $schema?: string;
            name?: string;
            description?: string;
            clock?: components["schemas"]["ClockInput"];
            topics?: components["schemas"]["ScenarioTopic"][];
            limits?: components["schemas"]["LimitsInput"];
            chaos?: components["schemas"]["ChaosInput"];
            faults?: components["schemas"]["FaultRuleInput"][];
            topicResets?: components["schemas"]["ScenarioTopicReset"][];
            tokens?: components["schemas"]["ScenarioTokenWithdrawal"][];
        };
        ScenarioApplied: {
            name?: string;
            /** @description The topics the scenario published to (present when it has `topics`). */
            topics?: components["schemas"]["ScenarioTopicSeeded"][];
            faults: components["schemas"]["Fault"][];
            topicResets: (components["schemas"]["TopicReset"] | components["schemas"]["ScheduledTopicReset"])[];
            tokenWithdrawals: components["schemas"]["TokenWithdrawal"][];
            limits?: components["schemas"]["Limits"];
            chaos?: components["schemas"]["Chaos"];
            clock: components["schemas"]["Clock"];
        };
        /** @description A message's value as the service delivers it - UTF-8 text, or the exact bytes in base64. */
        MessageValue: {
            text: string;
        } | {
            /** @description Standard base64 with padding. */
            binary: string;
        };
        SequenceNumber: number;
        /** @description A page or next number: any safe integer. The emulator never numbers or pages past the largest (a publish or page change that would is refused), so every state it writes loads back. */
        SnapshotCounter: number;
        SnapshotMessage: {
            sequenceNumber: components["schemas"]["SequenceNumber"];
            value: components["schemas"]["MessageValue"];
        };
        TopicMessages: {
            cache: components["schemas"]["ResourceName"];
            topic: components["schemas"]["ResourceName"];
            /** @description The topic's page; null when the topic does not exist (yet). */
            page: number | null;
            /** @description The number the topic's next message gets. */
            nextSequenceNumber: number;
            messages: components["schemas"]["RetainedMessagePreview"][];
        };
        RetainedMessagePreview: {
            sequenceNumber: components["schemas"]["SequenceNumber"];
            page: number;
            value: components["schemas"]["MessageValue"];
            /** @description The whole value's characters (text) or bytes (binary). */
            size: number;
            /** @description The value is cut to its first 512 characters (of text, or of base64). */
            truncated: boolean;
        };
        /**
         * @description One topic: its page, the number its next message gets, and its retained messages,
         *     oldest first, numbered without gaps up to `nextSequenceNumber - 1`.
         */
        SnapshotTopic: {
            cache: components["schemas"]["ResourceName"];
            topic: components["schemas"]["ResourceName"];
            page: components["schemas"]["SnapshotCounter"];
            nextSequenceNumber: components["schemas"]["SnapshotCounter"];
            messages: components["schemas"]["SnapshotMessage"][];
        };
        /** @description One cache item; its key and value as standard base64 of their bytes (a collection's members in `collection`). */
        SnapshotItem: {
            cache: components["schemas"]["ResourceName"];
            key: string;
            value: string;
            ttlRemainingMs: number;
            collection?: components["schemas"]["SnapshotCollection"];
        };
        CacheItemList: {
            cache: string;
            items: components["schemas"]["CacheItemView"][];
            /** @description How many live items the cache has in all. */
            count: number;
        };
        CacheItemDetail: {
            cache: string;
            item: components["schemas"]["CacheItemView"];
            /** @description A scalar's value (absent for a collection). */
            value?: components["schemas"]["CacheBytes"];
            /** @description A collection's members in all (0 for a scalar). */
            memberCount: number;
            /** @description A page of a collection's members, in their order. */
            members: components["schemas"]["CacheMember"][];
        };
        CacheMember: {
            /** @description A dictionary's field, a set's or sorted set's element, a list's value. */
            member: components["schemas"]["CacheBytes"];
            /** @description A dictionary field's value. */
            value?: components["schemas"]["CacheBytes"];
            /** @description A sorted set element's score. */
            score?: number;
        };
        /** @description Bytes, as text when they are UTF-8 (else null), and always as standard base64. */
        CacheBytes: {
            text: string | null;
            base64: string;
        };
        CacheItemView: {
            /** @description The key as text, or null when its bytes are not UTF-8. */
            key: string | null;
            keyBase64: string;
            /** @enum {unknown} */
            type: "scalar" | "dictionary" | "set" | "list" | "sorted-set";
            /** @description The bytes its value, or a collection's members, hold. */
            bytes: number;
            /** @description A collection's member count. */
            members?: number;
            ttlRemainingMs: number;
        };
        /** @description A collection's member (a field, a value, an element) as standard base64 of its bytes. */
        SnapshotMember: string;
        /** @description A collection item (its `value` is then empty): its type and members in their order, at most 100,000 (x-emulator-cache-collections). */
        SnapshotCollection: {
            /** @constant */
            type: "dictionary";
            fields: {
                field: components["schemas"]["SnapshotMember"];
                value: components["schemas"]["SnapshotMember"];
            }[];
        } | {
            /** @constant */
            type: "set";
            elements: components["schemas"]["SnapshotMember"][];
        } | {
            /** @constant */
            type: "list";
            values: components["schemas"]["SnapshotMember"][];
        } | {
            /** @constant */
            type: "sorted-set";
            elements: {
                value: components["schemas"]["SnapshotMember"];
                score: number;
            }[];
        };
        /** @description A scheduled page change - after the message numbered `afterSequenceNumber`, or at the clock time `at`. */
        SnapshotTopicReset: {
            cache: components["schemas"]["ResourceName"];
            topic: components["schemas"]["ResourceName"];
            afterSequenceNumber?: components["schemas"]["SequenceNumber"];
            /** Format: date-time */
            at?: string;
        } & (unknown | unknown);
        /**
         * @description A fault rule as added, with how far it has got. Its random draws (`probability`) resume
         *     where they stopped: the rule's seed and its counters say how many were drawn.
         */
        SnapshotFault: {
            id: string;
            rule: components["schemas"]["FaultRuleInput"];
            /** @description False while `startAfterMs` has not passed. */
            started: boolean;
            matched: number;
            fired: number;
            delivered?: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            endsAt?: string;
        };
        SnapshotChaos: {
            input: components["schemas"]["ChaosInput"];
            draws: number;
            injected: number;
            /** @description Numbers drawn from the seeded generator so far; the next draw continues from there. */
            randomCalls: number;
        };
        SnapshotClock: {
            /** @constant */
            mode: "virtual";
            nowMs: number;
        } | {
            /** @constant */
            mode: "real";
            /** @description How far the clock was advanced ahead of the wall clock. */
            offsetMs: number;
        };
        SnapshotTokenWithdrawal: {
            tokenId: components["schemas"]["TokenId"];
            /** @enum {unknown} */
            how: "expired" | "revoked";
            /** Format: date-time */
            at: string;
            scheduled: boolean;
        };
        /**
         * @description The emulator's whole state (GET and PUT /_emulator/snapshot, `--state-file`). Store
         *     neutral: the in-memory store and any other produce and load the same document.
         */
        Snapshot: {
            /** @constant */
            format: "topics-emulator/snapshot";
            /**
             * @description The snapshot format's version; a later format has a greater number.
             * @constant
             */
            version: 1;
            /**
             * Format: date-time
             * @description The clock's reading when the snapshot was taken.
             */
            takenAt: string;
            /** @description The greatest page given to any topic so far; later pages are greater. */
            lastPage: number;
            /** @description At most 100,000 topics: a snapshot is loaded in one turn of the event loop (with a million, the server would not answer for half a minute). */
            topics: components["schemas"]["SnapshotTopic"][];
            topicResets: components["schemas"]["SnapshotTopicReset"][];
            /** @description The cache's items (absent: none), each with the TTL it had left when the snapshot was taken, which runs again from the loaded clock's reading. At most 100,000, the emulator's bound. */
            items?: components["schemas"]["SnapshotItem"][];
            faults: components["schemas"]["SnapshotFault"][];
            /** @description Seeded chaos, or null when off. */
            chaos: null | components["schemas"]["SnapshotChaos"];
            limits: components["schemas"]["LimitsInput"] & {
                enabled: boolean;
                operationsPerSecond: number;
                concurrentSubscriptions: number;
            };
            clock: components["schemas"]["SnapshotClock"];
            tokenWithdrawals: components["schemas"]["SnapshotTokenWithdrawal"][];
        };
        SnapshotLoaded: {
            topics: number;
            /** @description Cache items loaded. */
            items: number;
            /** @description Retained messages loaded (after trimming to `--retention`). */
            messages: number;
            faults: number;
            tokenWithdrawals: number;
            /** @description Waiting subscribers answered `{"items": []}` by the load. */
            answeredSubscribers: number;
            clock: components["schemas"]["Clock"];
        };
        /**
         * @description Messages published to a topic, in order, when the scenario is applied, numbered as any
         *     publish (waiting subscribers get them). Each is at most `--payload-limit` bytes (400
         *     `invalid_body`); a cache that does not exist answers 404 `cache_not_found`. Both are
         *     checked before anything is published.
         */
        ScenarioTopic: {
            cache: components["schemas"]["ResourceName"];
            topic: components["schemas"]["ResourceName"];
            messages: components["schemas"]["MessageValue"][];
        };
        ScenarioTopicSeeded: {
            cache: string;
            topic: string;
            page: number;
            published: number;
            nextSequenceNumber: number;
        };
        /** @description Every error of the control plane; the codes share the one registry with the service's. */
        Error: {
            /** @enum {string} */
            code: "invalid_body" | "invalid_request" | "invalid_parameter" | "unsupported_content_type" | "payload_too_large" | "admin_key_required" | "admin_key_invalid" | "fault_not_found" | "replica_unreachable" | "service_unavailable" | "cache_not_found" | "route_not_found" | "method_not_allowed" | "request_header_too_large" | "request_timeout" | "host_not_allowed" | "origin_not_allowed" | "internal_error";
            message: string;
        };
        Cursor: {
            sequenceNumber: number;
            sequencePage: number;
        };
        /** @description One answered request (emulator/exchange.ts). Never a credential. */
        JournalEntry: {
            /**
             * @description `http`: a request of the HTTP API or the control plane. `grpc`: a call of the provider's gRPC service (x-emulator-grpc), journalled once it has ended: a Publish, or a Subscribe stream as one entry (its `path` the gRPC method, `durationMs` how long the stream was open, `status` the HTTP status of the same answer: 200 when it ended without an error).
             * @enum {unknown}
             */
            protocol: "http" | "grpc";
            /** @description Increasing from 1 for the emulator's life. With a Redis store, unique across the replicas and increasing within one replica's entries (x-emulator-gathered-reads). */
            id: number;
            /** @description With a Redis store, the replica that answered the request (`r<ordinal>`). */
            replica?: string;
            /** @enum {unknown} */
            plane: "service" | "control";
            /** @description The operationId; null when no route matched. */
            operation: string | null;
            method: string;
            /** @description Without the query string. */
            path: string;
            /** @description Clock milliseconds since the epoch when the request arrived. */
            at: number;
            /** @description Real milliseconds until the answer left or the connection closed. */
            durationMs: number;
            /** @description This emulator's number for the connection the request came on, from 1 in the order connections first sent a request (with a Redis store, per replica). */
            connectionId: number;
            cache: string | null;
            topic: string | null;
            /** @description A subscribe's cursor as sent; null when it sent none. */
            cursor: components["schemas"]["Cursor"] | null;
            /** @description `token:<tokenId>`, `token:#<digest>`, `key:#<digest>`; null without a credential. */
            client: string | null;
            /** @enum {unknown} */
            credentialPlace: "header" | "query" | "both" | "none";
            /** @description Whether the Authorization header began with `Bearer` (any case) and a space or tab: the prefix the contract does not take, answered 401 `invalid_token`. */
            bearer: boolean;
            /** @description Null when the connection was dropped or the client went away first. */
            status: number | null;
            code: string | null;
            retryAfterSeconds: number | null;
            /** @description The fault rule, chaos or limit that decided the answer, when known. */
            decidedBy: components["schemas"]["DecidedBy"] | null;
            /** @description The sequence numbers a subscribe delivered, in order. For a gRPC stream, those since its last discontinuity (`delivered` counts them all). */
            items: number[];
            page: number | null;
            discontinuity: {
                lastTopicSequence: number;
                newTopicSequence: number;
                newSequencePage: number;
            } | null;
            /** @description A gRPC stream's items in all, across its discontinuities; absent for HTTP requests. */
            delivered?: number;
            dropped: boolean;
            /** @description The client went away before the answer left (for a gRPC stream, it cancelled the stream). */
            clientGone: boolean;
            waitedMs: number;
        };
        /** @description What decided an answer when it was not the handler (emulator/exchange.ts). */
        DecidedBy: {
            /** @constant */
            kind: "fault";
            ruleId: string;
        } | {
            /** @constant */
            kind: "chaos";
        } | {
            /** @constant */
            kind: "metadata";
        } | {
            /** @constant */
            kind: "limit";
            /** @enum {unknown} */
            limit: "operations" | "connections" | "waiting-subscribers";
        } | {
            /** @constant */
            kind: "token";
        };
        RequestList: {
            /** @description Newest first. */
            entries: components["schemas"]["JournalEntry"][];
            /** @description Entries held now. */
            journalled: number;
            /** @description Entries pushed out of the ring since start or the last reset. */
            evicted: number;
            capacity: number;
        };
        RequestStatus: number | null;
        /** @description Every member is optional; a request matches when it matches every member given. */
        RequestMatcher: {
            /** @enum {unknown} */
            protocol?: "http" | "grpc";
            /** @enum {unknown} */
            plane?: "service" | "control";
            operation?: string;
            method?: string;
            path?: string;
            cache?: components["schemas"]["ResourceName"];
            topic?: components["schemas"]["ResourceName"];
            topicPrefix?: string;
            client?: string;
            /** @description One status or a list of them; null matches requests that got no answer. */
            status?: components["schemas"]["RequestStatus"] | components["schemas"]["RequestStatus"][];
            code?: string;
            /** @enum {unknown} */
            credentialPlace?: "header" | "query" | "both" | "none";
            bearer?: boolean;
            dropped?: boolean;
            clientGone?: boolean;
            /** @description true: requests answered 400 or more, or with no answer (dropped, or left by their client); false: the others. */
            failed?: boolean;
            /** @description A subscribe's cursor as sent; null matches a request that sent none. */
            cursor?: components["schemas"]["Cursor"] | null;
            /** @description At or after this time (date-time, or clock milliseconds). */
            since?: string | number;
            /** @description Before this time (date-time, or clock milliseconds). */
            until?: string | number;
            afterId?: number;
        };
        /** @description The most entries a listing answers (default 100). */
        RequestLimit: number;
        RequestCount: {
            count: number;
        };
        ClientViolation: {
            rule: string;
            /**
             * @description `contract`: the contract says so. `harm`: what does harm in production (retry storms, spinning, lost messages, a refused credential retried). `advice`: what robust clients do. The exam fails on `contract` and `harm`; `--strict` adds `advice`.
             * @enum {unknown}
             */
            level: "contract" | "harm" | "advice";
            /** @description The sentence the rule rests on, quoted. */
            sentence: string;
            source: string;
            message: string;
            requests: components["schemas"]["JournalEntry"][];
        };
        ClientFindings: {
            client: string;
            firstSeen: number;
            lastSeen: number;
            counters: {
                requests: number;
                publishes: number;
                polls: number;
                errors: number;
                /** @description 429 answers. */
                throttled: number;
                /** @description 401 and 403 answers. */
                unauthorized: number;
                dropped: number;
                clientGone: number;
                itemsReceived: number;
                discontinuities: number;
            };
            subscriptions: {
                id: number;
                cache: string;
                topic: string;
                polls: number;
                firstRequest: number;
                lastRequest: number;
                itemsReceived: number;
                discontinuities: number;
            }[];
            rules: {
                rule: string;
                /** @enum {unknown} */
                level: "contract" | "harm" | "advice";
                /** @description How often the situation the rule is about arose; 0 is not exercised. */
                occasions: number;
                violations: number;
            }[];
            violations: components["schemas"]["ClientViolation"][];
        };
        ClientList: {
            clients: components["schemas"]["ClientFindings"][];
        };
    };
    responses: {
        /** @description The body is not valid JSON (`invalid_request`) or breaks the schema (`invalid_body`). */
        InvalidBody: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An admin key is configured and the request carries none (`admin_key_required`). */
        AdminKeyRequired: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request's admin key is wrong (`admin_key_invalid`), or a web page the control plane does not serve sent it (`origin_not_allowed`, `host_not_allowed`: x-emulator-same-origin). */
        AdminKeyInvalid: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No rule has this id (`fault_not_found`); used-up rules are removed. */
        FaultNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description With a Redis store, a read that covers every replica could not: a registered replica did not answer within 2 s (`replica_unreachable`, naming it; Retry-After 5), or this replica has lost Redis (`service_unavailable`). Never a partial answer (x-emulator-gathered-reads). */
        ReplicaUnreachable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description At most this many of each long list (StatePage.limit). */
        pageLimit: string;
        /** @description Skip this many of each long list first (StatePage.offset). */
        pageOffset: string;
        cacheName: components["schemas"]["ResourceName"];
        topicName: components["schemas"]["ResourceName"];
        /** @description The token id given when the token was issued. */
        tokenId: components["schemas"]["TokenId"];
        faultId: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Starting (`status: starting`: a door the settings ask for does not serve yet), or the store (Redis) cannot be reached (`status: unavailable`; the replica recovers by itself). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getTlsAuthority: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The authority's certificate. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-pem-file": string;
                };
            };
            /** @description No local authority is in use. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Reset done. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResetResult"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    getState: {
        parameters: {
            query?: {
                /** @description At most this many of each long list (StatePage.limit). */
                limit?: components["parameters"]["pageLimit"];
                /** @description Skip this many of each long list first (StatePage.offset). */
                offset?: components["parameters"]["pageOffset"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["State"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
            503: components["responses"]["ReplicaUnreachable"];
        };
    };
    streamEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream (it does not end while the reader and the emulator are there). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    issueToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenRequest"];
            };
        };
        responses: {
            /** @description The token. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedToken"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    expireToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token id given when the token was issued. */
                tokenId: components["parameters"]["tokenId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["WithdrawalInput"];
            };
        };
        responses: {
            /** @description Done, or scheduled. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenWithdrawal"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token id given when the token was issued. */
                tokenId: components["parameters"]["tokenId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["WithdrawalInput"];
            };
        };
        responses: {
            /** @description Done, or scheduled. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenWithdrawal"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    resetTopic: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cacheName: components["parameters"]["cacheName"];
                topicName: components["parameters"]["topicName"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["TopicResetInput"];
            };
        };
        responses: {
            /** @description The page changed now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TopicReset"];
                };
            };
            /** @description The page change is scheduled. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduledTopicReset"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
            /** @description The cache does not exist (`cache_not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTopicMessages: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cacheName: components["parameters"]["cacheName"];
                topicName: components["parameters"]["topicName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The retained messages. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TopicMessages"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
            /** @description The cache does not exist (`cache_not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCaches: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caches. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CacheList"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    createCache: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cacheName: components["parameters"]["cacheName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cache was there already. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CacheChange"];
                };
            };
            /** @description The cache was made. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CacheChange"];
                };
            };
            /** @description The name is not one (`invalid_parameter`), or the store has fixed caches (`invalid_request`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
            /** @description The emulator holds as many caches as it may (`limit_exceeded`). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteCache: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cacheName: components["parameters"]["cacheName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cache was deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CacheChange"];
                };
            };
            /** @description The store has fixed caches (`invalid_request`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
            /** @description The cache does not exist (`cache_not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCacheItems: {
        parameters: {
            query?: {
                /** @description At most this many of each long list (StatePage.limit). */
                limit?: components["parameters"]["pageLimit"];
                /** @description Skip this many of each long list first (StatePage.offset). */
                offset?: components["parameters"]["pageOffset"];
            };
            header?: never;
            path: {
                cacheName: components["parameters"]["cacheName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page of items. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CacheItemList"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
            /** @description The cache does not exist (`cache_not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCacheItem: {
        parameters: {
            query?: {
                /** @description At most this many of each long list (StatePage.limit). */
                limit?: components["parameters"]["pageLimit"];
                /** @description Skip this many of each long list first (StatePage.offset). */
                offset?: components["parameters"]["pageOffset"];
            };
            header?: never;
            path: {
                cacheName: components["parameters"]["cacheName"];
                /** @description The item's key as base64 of its bytes (standard or URL-safe), as listCacheItems gives it. */
                keyBase64: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The item, and the page of its members. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CacheItemDetail"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
            /** @description The cache does not exist (`cache_not_found`), or has no such live item (`key_not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    flushCache: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cacheName: components["parameters"]["cacheName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The items were removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CacheChange"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
            /** @description The cache does not exist (`cache_not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The clock. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Clock"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    setClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClockInput"];
            };
        };
        responses: {
            /** @description The clock after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Clock"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    listFaults: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rules. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FaultList"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    addFault: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FaultRuleInput"];
            };
        };
        responses: {
            /** @description The rule, with its id. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Fault"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    clearFaults: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How many were removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Removed"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    getFault: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                faultId: components["parameters"]["faultId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Fault"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
            404: components["responses"]["FaultNotFound"];
        };
    };
    removeFault: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                faultId: components["parameters"]["faultId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The removed rule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Fault"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
            404: components["responses"]["FaultNotFound"];
        };
    };
    getLimits: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The limits. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Limits"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    setLimits: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LimitsInput"];
            };
        };
        responses: {
            /** @description The limits after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Limits"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    getChaos: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Chaos. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Chaos"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    startChaos: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChaosInput"];
            };
        };
        responses: {
            /** @description Chaos, started. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Chaos"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    stopChaos: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Chaos, stopped (with the counts it reached). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Chaos"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    applyScenario: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Scenario"];
                "application/yaml": components["schemas"]["Scenario"];
            };
        };
        responses: {
            /** @description What was set up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScenarioApplied"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
            /** @description A cache the scenario names does not exist (`cache_not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSnapshot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The snapshot. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Snapshot"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    loadSnapshot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Snapshot"];
            };
        };
        responses: {
            /** @description Loaded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SnapshotLoaded"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
        };
    };
    listRequests: {
        parameters: {
            query?: {
                protocol?: "http" | "grpc";
                plane?: "service" | "control";
                /** @description An operationId (publish, subscribe, reset, addFault, ...). */
                operation?: string;
                cache?: components["schemas"]["ResourceName"];
                topic?: components["schemas"]["ResourceName"];
                /** @description The status answered (three digits). */
                status?: string;
                /** @description true for errors and unanswered requests only (RequestMatcher.failed), false for the others. */
                failed?: "true" | "false";
                /** @description The error code answered (`limit_exceeded`, ...). */
                code?: string;
                /** @description A client identity as journalled (`token:<id>`, `token:#<digest>`, `key:#<digest>`). */
                client?: string;
                /** @description Requests that arrived at or after this time (clock). */
                since?: string;
                /** @description Requests with a greater id (a reader polling for what is new). */
                afterId?: string;
                /** @description At most this many (default 100, at most 10000). */
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestList"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
            503: components["responses"]["ReplicaUnreachable"];
        };
    };
    countRequests: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RequestMatcher"];
            };
        };
        responses: {
            /** @description The count. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestCount"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
            503: components["responses"]["ReplicaUnreachable"];
        };
    };
    listClients: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The clients, in order of first request. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientList"];
                };
            };
            401: components["responses"]["AdminKeyRequired"];
            403: components["responses"]["AdminKeyInvalid"];
            503: components["responses"]["ReplicaUnreachable"];
        };
    };
}

// Each schema under its own name.
export type Health = components['schemas']['Health'];
export type ResourceName = components['schemas']['ResourceName'];
export type TokenId = components['schemas']['TokenId'];
export type DurationMs = components['schemas']['DurationMs'];
export type Operation = components['schemas']['Operation'];
export type Removed = components['schemas']['Removed'];
export type ResetResult = components['schemas']['ResetResult'];
export type Permission = components['schemas']['Permission'];
export type TokenRequest = components['schemas']['TokenRequest'];
export type IssuedToken = components['schemas']['IssuedToken'];
export type WithdrawalInput = components['schemas']['WithdrawalInput'];
export type TokenWithdrawal = components['schemas']['TokenWithdrawal'];
export type TopicResetInput = components['schemas']['TopicResetInput'];
export type TopicReset = components['schemas']['TopicReset'];
export type ScheduledTopicReset = components['schemas']['ScheduledTopicReset'];
export type ClockInput = components['schemas']['ClockInput'];
export type Clock = components['schemas']['Clock'];
export type FaultRuleInput = components['schemas']['FaultRuleInput'];
export type Fault = components['schemas']['Fault'];
export type FaultList = components['schemas']['FaultList'];
export type LimitsInput = components['schemas']['LimitsInput'];
export type Limits = components['schemas']['Limits'];
export type ChaosKind = components['schemas']['ChaosKind'];
export type ChaosInput = components['schemas']['ChaosInput'];
export type Chaos = components['schemas']['Chaos'];
export type CacheList = components['schemas']['CacheList'];
export type CacheChange = components['schemas']['CacheChange'];
export type TopicState = components['schemas']['TopicState'];
export type WaitingSubscriberState = components['schemas']['WaitingSubscriberState'];
export type StatePage = components['schemas']['StatePage'];
export type State = components['schemas']['State'];
export type ScenarioTopicReset = components['schemas']['ScenarioTopicReset'];
export type ScenarioTokenWithdrawal = components['schemas']['ScenarioTokenWithdrawal'];
export type Scenario = components['schemas']['Scenario'];
export type ScenarioApplied = components['schemas']['ScenarioApplied'];
export type MessageValue = components['schemas']['MessageValue'];
export type SequenceNumber = components['schemas']['SequenceNumber'];
export type SnapshotCounter = components['schemas']['SnapshotCounter'];
export type SnapshotMessage = components['schemas']['SnapshotMessage'];
export type TopicMessages = components['schemas']['TopicMessages'];
export type RetainedMessagePreview = components['schemas']['RetainedMessagePreview'];
export type SnapshotTopic = components['schemas']['SnapshotTopic'];
export type SnapshotItem = components['schemas']['SnapshotItem'];
export type CacheItemList = components['schemas']['CacheItemList'];
export type CacheItemDetail = components['schemas']['CacheItemDetail'];
export type CacheMember = components['schemas']['CacheMember'];
export type CacheBytes = components['schemas']['CacheBytes'];
export type CacheItemView = components['schemas']['CacheItemView'];
export type SnapshotMember = components['schemas']['SnapshotMember'];
export type SnapshotCollection = components['schemas']['SnapshotCollection'];
export type SnapshotTopicReset = components['schemas']['SnapshotTopicReset'];
export type SnapshotFault = components['schemas']['SnapshotFault'];
export type SnapshotChaos = components['schemas']['SnapshotChaos'];
export type SnapshotClock = components['schemas']['SnapshotClock'];
export type SnapshotTokenWithdrawal = components['schemas']['SnapshotTokenWithdrawal'];
export type Snapshot = components['schemas']['Snapshot'];
export type SnapshotLoaded = components['schemas']['SnapshotLoaded'];
export type ScenarioTopic = components['schemas']['ScenarioTopic'];
export type ScenarioTopicSeeded = components['schemas']['ScenarioTopicSeeded'];
export type Error = components['schemas']['Error'];
export type Cursor = components['schemas']['Cursor'];
export type JournalEntry = components['schemas']['JournalEntry'];
export type DecidedBy = components['schemas']['DecidedBy'];
export type RequestList = components['schemas']['RequestList'];
export type RequestStatus = components['schemas']['RequestStatus'];
export type RequestMatcher = components['schemas']['RequestMatcher'];
export type RequestLimit = components['schemas']['RequestLimit'];
export type RequestCount = components['schemas']['RequestCount'];
export type ClientViolation = components['schemas']['ClientViolation'];
export type ClientFindings = components['schemas']['ClientFindings'];
export type ClientList = components['schemas']['ClientList'];
