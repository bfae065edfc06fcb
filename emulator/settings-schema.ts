// The rules every setting must keep, as JSON Schema: the one place they live. settings.ts
// validates with the validator generated from this schema at build time
// (emulator/generated/settings-validator.ts, by `npm run openapi:compile`), so no schema is
// compiled when the emulator starts.

const name = { type: 'string', minLength: 1, maxLength: 255 } as const;
// An origin as browsers send it (scheme://host[:port], no path), `null`, or `*` for any.
const origin = {
  type: 'string',
  pattern: '^(\\*|null|[A-Za-z][A-Za-z0-9+.-]*://[^/\\s]+)$',
  description: "an origin (scheme://host[:port], no path), 'null' or '*'",
} as const;
export const settingsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    host: { type: 'string', minLength: 1 },
    port: { type: 'integer', minimum: 0, maximum: 65535 },
    caches: { type: 'array', items: name, minItems: 1, uniqueItems: true },
    apiKeys: { type: 'array', items: { type: 'string', minLength: 8 }, minItems: 1 },
    signingKey: { type: 'string', minLength: 16 },
    payloadLimitBytes: { type: 'integer', minimum: 1, maximum: 104_857_600 },
    retention: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    maxBatch: { type: 'integer', minimum: 1, maximum: 10_000 },
    longPollTimeoutMs: { type: 'integer', minimum: 0, maximum: 86_400_000 },
    firstSubscribe: { enum: ['latest', 'next', 'oldest'] },
    discontinuity: { enum: ['with-item', 'alone'] },
    contentTypes: { enum: ['lenient', 'strict'] },
    maxWaitingSubscribers: { type: 'integer', minimum: 1, maximum: 10_000_000 },
    requestTimeoutMs: { type: 'integer', minimum: 0, maximum: 86_400_000 },
    logLevel: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
    corsOrigins: { type: 'array', items: origin },
    controlCorsOrigins: { type: 'array', items: origin },
    allowedHosts: {
      type: 'array',
      items: {
        type: 'string',
        pattern: '^(\\*|\\.?[^\\s:/*]+)$',
        description: "a host name without port, '.name' or '*'",
      },
    },
    endpoint: { type: 'string', minLength: 1 },
    controlPlane: { type: 'boolean' },
    adminKey: { type: 'string', minLength: 8 },
    scenario: { type: 'string', minLength: 1 },
    limits: { enum: ['off', 'account', 'basic', 'pro'] },
    limitOperationsPerSecond: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    limitConcurrentSubscriptions: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    chaosSeed: { type: 'integer', minimum: 0, maximum: 4_294_967_295 },
    chaosRate: { type: 'number', minimum: 0, maximum: 1 },
    journalSize: { type: 'integer', minimum: 0, maximum: 1_000_000 },
  },
} as const;
