// Generated from openapi/topics.yaml by 'npm run openapi:compile' (scripts/compile-types.ts). Do not edit.
export interface paths {
    "/topics/{cacheName}/{topicName}": {
        parameters: {
            query?: {
                /** @description Auth token, when the `Authorization` header is not used (never both). */
                token?: components["parameters"]["token"];
            };
            header?: {
                /** @description Auth token, when the `token` query parameter is not used (never both). */
                Authorization?: components["parameters"]["authorization"];
            };
            path: {
                /** @description Cache containing the topic. */
                cacheName: components["parameters"]["cacheName"];
                /** @description Topic name, unique within its cache. */
                topicName: components["parameters"]["topicName"];
            };
            cookie?: never;
        };
        /**
         * Receive messages from a topic (long-poll).
         * @description Blocks until at least one message or one discontinuity element is available, then
         *     answers 200 with `{"items": [...]}`. The client advances by sending
         *     `sequence_number` = last received `topic_sequence_number` + 1 and `sequence_page` =
         *     the last received page.
         */
        get: operations["subscribe"];
        put?: never;
        /**
         * Publish one message to a topic.
         * @description The body is the message, as raw bytes; no JSON envelope. `text/plain` publishes
         *     UTF-8 text, `application/octet-stream` publishes binary data.
         */
        post: operations["publish"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cache/{cacheName}": {
        parameters: {
            query?: {
                /** @description The item's key as text (not together with `key_base64`). */
                key?: components["parameters"]["itemKey"];
                /** @description The item's key as base64url of its bytes (not together with `key`). */
                key_base64?: components["parameters"]["itemKeyBase64"];
                /** @description Auth token, when the `Authorization` header is not used (never both). */
                token?: components["parameters"]["token"];
            };
            header?: {
                /** @description Auth token, when the `token` query parameter is not used (never both). */
                Authorization?: components["parameters"]["authorization"];
            };
            path: {
                /** @description The cache to operate on. */
                cacheName: components["schemas"]["ResourceName"];
            };
            cookie?: never;
        };
        /** Get Value - the item's bytes. */
        get: operations["cacheGet"];
        /** Set Value - stores the raw body under the key for ttl_seconds. */
        put: operations["cacheSet"];
        post?: never;
        /** Delete Value - 204, also when the key is absent. */
        delete: operations["cacheDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ResourceName: string;
        Counter: number;
        SubscribeResponse: {
            items: components["schemas"]["SubscribeElement"][];
        };
        /** @description Exactly one of `item` or `discontinuity`. */
        SubscribeElement: {
            item: components["schemas"]["Item"];
        } | {
            discontinuity: components["schemas"]["Discontinuity"];
        };
        Item: {
            /** @description Page of the topic instance. */
            sequence_page: number;
            /** @description Sequence number of the message within the page. */
            topic_sequence_number: number;
            value: components["schemas"]["Value"];
        };
        /** @description Exactly one of `text` or `binary`. */
        Value: {
            text: string;
        } | {
            /** @description Standard base64 of the message's bytes (x-emulator-binary-values). */
            binary: string;
        };
        Discontinuity: {
            /** @description Last sequence number before the gap. */
            last_topic_sequence: number;
            /** @description Sequence number from which delivery continues. */
            new_topic_sequence: number;
            /** @description Page that applies from then on. */
            new_sequence_page: number;
        };
        /**
         * @description Every error the emulator answers. The live service's error body is not published
         *     (service-facts "Errors"); the emulator's follows the provider's other HTTP APIs.
         */
        Error: {
            /** @enum {string} */
            code: "token_in_header_and_query" | "missing_token" | "invalid_token" | "expired_token" | "permission_denied" | "cache_not_found" | "invalid_parameter" | "unsupported_content_type" | "invalid_utf8" | "payload_too_large" | "limit_exceeded" | "internal_error" | "route_not_found" | "method_not_allowed" | "invalid_request" | "request_header_too_large" | "request_timeout" | "host_not_allowed" | "origin_not_allowed" | "service_unavailable" | "key_not_found" | "failed_precondition";
            message: string;
        };
    };
    responses: {
        /** @description The request is incorrectly specified, or the token is given both as header and as query parameter. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The token is missing, invalid or expired. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The token does not grant the required access to the resources (`permission_denied`). The emulator also answers 403 to a web page it does not serve: `origin_not_allowed` (x-emulator-browser-origins) and `host_not_allowed` (x-emulator-host-check). */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The cache does not exist. */
        CacheNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The message is larger than the payload limit (x-emulator-payload-limit). */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Account limits were exceeded. `Retry-After` (seconds) says when to try again. */
        TooManyRequests: {
            headers: {
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The service has an internal problem. */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The service is unavailable for a while (an outage); `Retry-After` may say when to try again. Not in the contract's table: the emulator answers 503 `service_unavailable` only when a fault rule or seeded chaos of its control plane (openapi/control.yaml) asks for an outage, or, with a Redis store (`--store redis://...`), while its connection to Redis is lost (`Retry-After: 1`; it recovers by itself). */
        ServiceUnavailable: {
            headers: {
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description Cache containing the topic. */
        cacheName: components["schemas"]["ResourceName"];
        /** @description Topic name, unique within its cache. */
        topicName: components["schemas"]["ResourceName"];
        /** @description Auth token, when the `Authorization` header is not used (never both). */
        token: string;
        /** @description Auth token, when the `token` query parameter is not used (never both). */
        authorization: string;
        /** @description The item's key as text (not together with `key_base64`). */
        itemKey: string;
        /** @description The item's key as base64url of its bytes (not together with `key`). */
        itemKeyBase64: string;
        /** @description The next sequence number expected, normally last received + 1. 0 on the first request. */
        sequenceNumber: components["schemas"]["Counter"];
        /** @description The most recent page received; 0 on the first request or when unsure. */
        sequencePage: components["schemas"]["Counter"];
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    subscribe: {
        parameters: {
            query?: {
                /** @description Auth token, when the `Authorization` header is not used (never both). */
                token?: components["parameters"]["token"];
                /** @description The next sequence number expected, normally last received + 1. 0 on the first request. */
                sequence_number?: components["parameters"]["sequenceNumber"];
                /** @description The most recent page received; 0 on the first request or when unsure. */
                sequence_page?: components["parameters"]["sequencePage"];
            };
            header?: {
                /** @description Auth token, when the `token` query parameter is not used (never both). */
                Authorization?: components["parameters"]["authorization"];
            };
            path: {
                /** @description Cache containing the topic. */
                cacheName: components["parameters"]["cacheName"];
                /** @description Topic name, unique within its cache. */
                topicName: components["parameters"]["topicName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description At least one element, or (after the emulator's long-poll timeout) none. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscribeResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CacheNotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    publish: {
        parameters: {
            query?: {
                /** @description Auth token, when the `Authorization` header is not used (never both). */
                token?: components["parameters"]["token"];
            };
            header?: {
                /** @description Auth token, when the `token` query parameter is not used (never both). */
                Authorization?: components["parameters"]["authorization"];
            };
            path: {
                /** @description Cache containing the topic. */
                cacheName: components["parameters"]["cacheName"];
                /** @description Topic name, unique within its cache. */
                topicName: components["parameters"]["topicName"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "text/plain": string;
                "application/octet-stream": string;
                "application/json": string;
                "application/x-www-form-urlencoded": string;
                "text/*": string;
                "application/*+json": string;
                "octet-stream": string;
            };
        };
        responses: {
            /** @description The message has been published to the topic. Empty body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CacheNotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cacheGet: {
        parameters: {
            query?: {
                /** @description The item's key as text (not together with `key_base64`). */
                key?: components["parameters"]["itemKey"];
                /** @description The item's key as base64url of its bytes (not together with `key`). */
                key_base64?: components["parameters"]["itemKeyBase64"];
                /** @description Auth token, when the `Authorization` header is not used (never both). */
                token?: components["parameters"]["token"];
            };
            header?: {
                /** @description Auth token, when the `token` query parameter is not used (never both). */
                Authorization?: components["parameters"]["authorization"];
            };
            path: {
                /** @description The cache to operate on. */
                cacheName: components["schemas"]["ResourceName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Hit. The exact bytes stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description Miss (`key_not_found`, "Key Not Found") or no such cache (`cache_not_found`, "Cache Not Found"). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cacheSet: {
        parameters: {
            query: {
                /** @description The item's key as text (not together with `key_base64`). */
                key?: components["parameters"]["itemKey"];
                /** @description The item's key as base64url of its bytes (not together with `key`). */
                key_base64?: components["parameters"]["itemKeyBase64"];
                /** @description Auth token, when the `Authorization` header is not used (never both). */
                token?: components["parameters"]["token"];
                /** @description The item's time to live, in seconds. */
                ttl_seconds: number;
                /** @description Ignored (the provider's own integration cases repeat the body here); the body is stored. */
                value?: string;
            };
            header?: {
                /** @description Auth token, when the `token` query parameter is not used (never both). */
                Authorization?: components["parameters"]["authorization"];
            };
            path: {
                /** @description The cache to operate on. */
                cacheName: components["schemas"]["ResourceName"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description Stored. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CacheNotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cacheDelete: {
        parameters: {
            query?: {
                /** @description The item's key as text (not together with `key_base64`). */
                key?: components["parameters"]["itemKey"];
                /** @description The item's key as base64url of its bytes (not together with `key`). */
                key_base64?: components["parameters"]["itemKeyBase64"];
                /** @description Auth token, when the `Authorization` header is not used (never both). */
                token?: components["parameters"]["token"];
            };
            header?: {
                /** @description Auth token, when the `token` query parameter is not used (never both). */
                Authorization?: components["parameters"]["authorization"];
            };
            path: {
                /** @description The cache to operate on. */
                cacheName: components["schemas"]["ResourceName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted, or there was nothing to delete. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CacheNotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}

// Each schema under its own name.
export type ResourceName = components['schemas']['ResourceName'];
export type Counter = components['schemas']['Counter'];
export type SubscribeResponse = components['schemas']['SubscribeResponse'];
export type SubscribeElement = components['schemas']['SubscribeElement'];
export type Item = components['schemas']['Item'];
export type Value = components['schemas']['Value'];
export type Discontinuity = components['schemas']['Discontinuity'];
export type Error = components['schemas']['Error'];
