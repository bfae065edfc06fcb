import { chaosInputDefaults } from './documents.js';

// Every setting of the emulator, once: its key (startEmulator() option and config-file key),
// flag, environment variable, JSON Schema, default and help. Derived from this table: the
// EmulatorSettings type, the defaults, the config-file schema (whose validator
// `npm run openapi:compile` generates), the CLI's options and environment mapping (cli.ts) and
// the configuration page's table, docs/configuration.md (a test fails when it drifts).

/** Environment variables are this prefix and the row's `env`. */
export const ENV_PREFIX = 'TOPICS_EMULATOR_';

export interface SettingRow {
  /** The commander flag, with its value's name: `--port <port>`. */
  flag: string;
  env: string;
  schema: Schema;
  default?: string | number | boolean | readonly string[];
  help: string;
  /** How the default reads in help and README when the value itself would not say it. */
  shownDefault?: string;
  /** The flag's value is a duration (`90s`, `5m`; plain numbers are milliseconds). */
  duration?: true;
  /** A boolean setting's flag takes these words for true and false. */
  words?: readonly [string, string];
}

type Schema = Readonly<Record<string, unknown>>;

/** The support plans of the provider's quotas page (service-facts "Limits"); 'account' is the default plan. */
export const LIMIT_TIERS = {
  account: { operationsPerSecond: 100, concurrentSubscriptions: 100 },
  basic: { operationsPerSecond: 1_000, concurrentSubscriptions: 1_000 },
  pro: { operationsPerSecond: 10_000, concurrentSubscriptions: 10_000 },
} as const;

export const DEV_API_KEY = 'topics-emulator-dev-key';
export const DEV_SIGNING_KEY = 'topics-emulator-dev-signing-key-not-secret';

const name = { type: 'string', minLength: 1, maxLength: 255 } as const;
// An origin as browsers send it (scheme://host[:port], no path), `null`, or `*` for any.
const origin = {
  type: 'string',
  pattern: '^(\\*|null|[A-Za-z][A-Za-z0-9+.-]*://[^/\\s]+)$',
  description: "an origin (scheme://host[:port], no path), 'null' or '*'",
} as const;
const tiers = Object.entries(LIMIT_TIERS)
  .map(([tier, { operationsPerSecond }]) => `${tier} (${operationsPerSecond}/s)`)
  .join(', ');

export const settingsTable = {
  host: {
    flag: '--host <host>',
    env: 'HOST',
    schema: { type: 'string', minLength: 1 },
    default: '127.0.0.1',
    help: 'interface to listen on (0.0.0.0 for every interface)',
  },
  port: {
    flag: '--port <port>',
    env: 'PORT',
    schema: { type: 'integer', minimum: 0, maximum: 65535 },
    default: 4545,
    help: 'port to listen on; 0 picks a free one',
  },
  grpcPort: {
    flag: '--grpc-port <port>',
    env: 'GRPC_PORT',
    schema: { type: 'integer', minimum: 0, maximum: 65535 },
    shownDefault:
      'the CLI: the HTTP port + 1 (4546; off, with a warning, if taken; free with --port 0); startEmulator(): off unless given',
    help: "plaintext gRPC port for the provider's SDKs (Publish, Subscribe); 0 picks a free one",
  },
  grpcTlsPort: {
    flag: '--grpc-tls-port <port>',
    env: 'GRPC_TLS_PORT',
    schema: { type: 'integer', minimum: 0, maximum: 65535 },
    shownDefault: 'off',
    help: "the gRPC door over TLS (the local authority's certificate, or --tls-cert): what an SDK configured from MOMENTO_API_KEY alone connects to; 0 picks a free one",
  },
  testAdminPort: {
    flag: '--test-admin-port <port>',
    env: 'TEST_ADMIN_PORT',
    schema: { type: 'integer', minimum: 0, maximum: 65535 },
    shownDefault: 'off',
    help: "momento-local's test-admin port: GET /block makes the gRPC door (and gRPC-web) unreachable, GET /unblock restores it",
  },
  httpsPort: {
    flag: '--https-port <port>',
    env: 'HTTPS_PORT',
    schema: { type: 'integer', minimum: 0, maximum: 65535 },
    shownDefault: 'off',
    help: 'the same service over TLS, for clients that only speak https://api.cache.<endpoint>; 0 picks a free one',
  },
  tlsDir: {
    flag: '--tls-dir <path>',
    env: 'TLS_DIR',
    schema: { type: 'string', minLength: 1 },
    shownDefault: '~/.topics-emulator/tls',
    help: 'where the local certificate authority for --https-port is created once and kept',
  },
  tlsCert: {
    flag: '--tls-cert <path>',
    env: 'TLS_CERT',
    schema: { type: 'string', minLength: 1 },
    shownDefault: 'one the local authority signs',
    help: 'your own certificate (PEM, with its chain) for --https-port; with --tls-key',
  },
  tlsKey: {
    flag: '--tls-key <path>',
    env: 'TLS_KEY',
    schema: { type: 'string', minLength: 1 },
    shownDefault: "the local authority's",
    help: 'the private key (PEM) of --tls-cert',
  },
  grpcHeartbeatMs: {
    flag: '--grpc-heartbeat <duration>',
    env: 'GRPC_HEARTBEAT',
    schema: { type: 'integer', minimum: 100, maximum: 3_600_000 },
    // The service's cadence is not published; 1 s lets the SDK's own stream tests (a stream error
    // "after N messages", heartbeats counted, within its 5 s first-Subscribe deadline) pass.
    default: 1000,
    duration: true,
    help: 'how often an idle gRPC subscription stream gets a heartbeat (it opens with one)',
  },
  grpcIdleTimeoutMs: {
    flag: '--grpc-idle-timeout <duration>',
    env: 'GRPC_IDLE_TIMEOUT',
    schema: { type: 'integer', minimum: 1000, maximum: 86_400_000 },
    // gRPC's own max_connection_idle: the connection gets a GOAWAY (a client reconnects when it
    // next calls), so idle connections do not pile up.
    default: 300_000,
    duration: true,
    help: 'a gRPC connection with no call for this long is closed (GOAWAY; clients reconnect)',
  },
  grpcEmptyToken: {
    flag: '--grpc-empty-token <what>',
    env: 'GRPC_EMPTY_TOKEN',
    schema: { enum: ['full-access', 'refuse'] },
    default: 'full-access',
    help: 'what a gRPC call without a token gets (CredentialProvider.forMomentoLocal sends none): full access, as momento-local gives, or 401',
  },
  cacheDefaultTtlMs: {
    flag: '--cache-default-ttl <duration>',
    env: 'CACHE_DEFAULT_TTL',
    schema: { type: 'integer', minimum: 1000, maximum: 31_536_000_000 },
    // The SDK always sends its client's default TTL; a gRPC call that sends none (0, proto3's
    // "not set") is given this one rather than refused.
    default: 60_000,
    duration: true,
    help: "a cache item's TTL when a gRPC call sends none (the SDK always sends its client's default)",
  },
  caches: {
    flag: '--cache <name>',
    env: 'CACHES',
    schema: { type: 'array', items: name, minItems: 1, uniqueItems: true },
    default: ['default-cache'],
    help: 'a cache that exists',
  },
  apiKeys: {
    flag: '--api-key <key>',
    env: 'API_KEYS',
    schema: { type: 'array', items: { type: 'string', minLength: 8 }, minItems: 1 },
    default: [DEV_API_KEY],
    help: 'an API key with full access',
  },
  signingKey: {
    flag: '--signing-key <secret>',
    env: 'SIGNING_KEY',
    schema: { type: 'string', minLength: 16 },
    default: DEV_SIGNING_KEY,
    shownDefault: 'a fixed dev secret',
    help: 'HS256 secret for the tokens the emulator signs',
  },
  payloadLimitBytes: {
    flag: '--payload-limit <bytes>',
    env: 'PAYLOAD_LIMIT',
    schema: { type: 'integer', minimum: 1, maximum: 104_857_600 },
    default: 4096,
    help: 'largest message, in bytes',
  },
  retention: {
    flag: '--retention <count>',
    env: 'RETENTION',
    schema: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    default: 100,
    help: 'messages kept per topic for resume',
  },
  maxBatch: {
    flag: '--max-batch <count>',
    env: 'MAX_BATCH',
    schema: { type: 'integer', minimum: 1, maximum: 10_000 },
    default: 100,
    help: 'most items in one subscribe response',
  },
  longPollTimeoutMs: {
    flag: '--long-poll-timeout <duration>',
    env: 'LONG_POLL_TIMEOUT',
    schema: { type: 'integer', minimum: 0, maximum: 86_400_000 },
    default: 60_000,
    duration: true,
    help: 'how long a subscribe waits with nothing to answer; 0 = forever',
  },
  firstSubscribe: {
    flag: '--first-subscribe <where>',
    env: 'FIRST_SUBSCRIBE',
    schema: { enum: ['latest', 'next', 'oldest'] },
    default: 'next',
    help: 'where a first subscribe begins: it waits for the next message',
  },
  discontinuity: {
    flag: '--discontinuity <shape>',
    env: 'DISCONTINUITY',
    schema: { enum: ['with-item', 'alone'] },
    default: 'with-item',
    help: 'a discontinuity comes with the item it announces, or alone at once',
  },
  contentTypes: {
    flag: '--content-types <policy>',
    env: 'CONTENT_TYPES',
    schema: { enum: ['lenient', 'strict'] },
    default: 'lenient',
    help: 'unlisted content types: published as binary with a warning, or 400',
  },
  maxWaitingSubscribers: {
    flag: '--max-waiting <count>',
    env: 'MAX_WAITING',
    schema: { type: 'integer', minimum: 1, maximum: 10_000_000 },
    default: 20_000,
    help: 'most subscribers waiting at once (long-polls and open gRPC streams); one more gets 429',
  },
  requestTimeoutMs: {
    flag: '--request-timeout <duration>',
    env: 'REQUEST_TIMEOUT',
    schema: { type: 'integer', minimum: 0, maximum: 86_400_000 },
    default: 60_000,
    duration: true,
    help: 'how long a client may take to send a whole request (headers and body); then 408; 0 = no limit',
  },
  corsOrigins: {
    flag: '--cors-origin <origin>',
    env: 'CORS_ORIGINS',
    schema: { type: 'array', items: origin },
    default: [],
    shownDefault: 'none: local origins only',
    help: "a web page's origin allowed on the service routes besides local ones, or '*'",
  },
  controlCorsOrigins: {
    flag: '--control-cors-origin <origin>',
    env: 'CONTROL_CORS_ORIGINS',
    schema: { type: 'array', items: origin },
    default: [],
    shownDefault: 'none: same origin only',
    help: "a web page's origin allowed on the control plane besides its own pages ('*' needs an admin key)",
  },
  allowedHosts: {
    flag: '--allowed-host <host>',
    env: 'ALLOWED_HOSTS',
    schema: {
      type: 'array',
      items: {
        type: 'string',
        pattern: '^(\\*|\\.?[^\\s:/*]+)$',
        description: "a host name without port, '.name' or '*'",
      },
    },
    default: [],
    shownDefault: 'none: localhost, *.localhost and IP addresses',
    help: "a Host served besides localhost and IP addresses: name, .name (and subdomains) or '*'",
  },
  endpoint: {
    flag: '--endpoint <host>',
    env: 'ENDPOINT',
    schema: { type: 'string', minLength: 1 },
    shownDefault: 'localhost:port',
    help: 'the endpoint written into portable tokens',
  },
  logLevel: {
    flag: '--log-level <level>',
    env: 'LOG_LEVEL',
    schema: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
    default: 'info',
    help: 'how much to log (debug and trace log every request)',
  },
  logFormat: {
    flag: '--log-format <format>',
    env: 'LOG_FORMAT',
    schema: { enum: ['auto', 'pretty', 'json'] },
    default: 'auto',
    help: 'log lines for a person (pretty) or one JSON object per line (json); auto: pretty in a terminal, JSON otherwise',
  },
  controlPlane: {
    flag: '--control <on|off>',
    env: 'CONTROL',
    schema: { type: 'boolean' },
    default: true,
    words: ['on', 'off'],
    help: 'serve the control plane under /_emulator/ (health is always served)',
  },
  adminKey: {
    flag: '--admin-key <key>',
    env: 'ADMIN_KEY',
    schema: { type: 'string', minLength: 8 },
    help: 'the control plane then requires it in X-Emulator-Admin-Key (mandatory beyond loopback)',
  },
  scenario: {
    flag: '--scenario <file>',
    env: 'SCENARIO',
    schema: { type: 'string', minLength: 1 },
    help: 'a YAML or JSON scenario applied at start and on every reset',
  },
  stateFile: {
    flag: '--state-file <path>',
    env: 'STATE_FILE',
    schema: { type: 'string', minLength: 1 },
    shownDefault: 'none: nothing survives a restart',
    help: 'a snapshot of the whole state: loaded at start if it exists, written on a clean shutdown',
  },
  store: {
    flag: '--store <store>',
    env: 'STORE',
    schema: {
      type: 'string',
      pattern: '^(memory|rediss?://\\S+)$',
      description: "'memory', or a Redis/Valkey URL: redis://[user:pass@]host:port[/db] (rediss:// for TLS)",
    },
    default: 'memory',
    help: 'where topics live: memory (this process only), or a Redis/Valkey URL shared by several replicas',
  },
  storePrefix: {
    flag: '--store-prefix <prefix>',
    env: 'STORE_PREFIX',
    schema: { type: 'string', minLength: 1, maxLength: 200 },
    default: 'topics-emulator:',
    help: 'with a Redis store: the key prefix; replicas with the same store and prefix are one emulator',
  },
  limits: {
    flag: '--limits <plan>',
    env: 'LIMITS',
    schema: { enum: ['off', ...Object.keys(LIMIT_TIERS)] as ['off', ...(keyof typeof LIMIT_TIERS)[]] },
    default: 'off',
    help: `the provider's account limits on (429 when exceeded), with a plan's quotas: ${tiers}`,
  },
  limitOperationsPerSecond: {
    flag: '--limit-ops-per-second <count>',
    env: 'LIMIT_OPS_PER_SECOND',
    schema: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    shownDefault: "the plan's",
    help: 'account limit: operations per second',
  },
  limitConcurrentSubscriptions: {
    flag: '--limit-subscriptions <count>',
    env: 'LIMIT_SUBSCRIPTIONS',
    schema: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    shownDefault: "the plan's",
    help: 'account limit: concurrent connections',
  },
  chaosSeed: {
    flag: '--chaos-seed <seed>',
    env: 'CHAOS_SEED',
    schema: { type: 'integer', minimum: 0, maximum: 4_294_967_295 },
    help: 'seeded chaos from the start: a random, replayable mix of faults',
  },
  chaosRate: {
    flag: '--chaos-rate <probability>',
    env: 'CHAOS_RATE',
    schema: { type: 'number', minimum: 0, maximum: 1 },
    default: chaosInputDefaults().rate, // the control plane's ChaosInput default
    help: 'with --chaos-seed: share of requests that get a fault',
  },
  journalSize: {
    flag: '--journal-size <count>',
    env: 'JOURNAL_SIZE',
    schema: { type: 'integer', minimum: 0, maximum: 1_000_000 },
    default: 10_000,
    help: 'requests the journal keeps (the newest); 0 switches the journal, and the client rules, off',
  },
} as const satisfies Record<string, SettingRow>;

/** Not a setting: where more settings come from. */
export const configOption = {
  flag: '--config <file>',
  env: 'CONFIG',
  help: 'a JSON or YAML file of settings (flags and environment override it)',
} as const;

// The TypeScript type of a row's schema (the few shapes the table uses).
type TypeOf<S> = S extends { enum: readonly (infer E)[] }
  ? E
  : S extends { type: 'string' }
    ? string
    : S extends { type: 'integer' | 'number' }
      ? number
      : S extends { type: 'boolean' }
        ? boolean
        : S extends { type: 'array'; items: infer I }
          ? TypeOf<I>[]
          : never;

type Table = typeof settingsTable;
type WithDefault = { [K in keyof Table]: Table[K] extends { default: unknown } ? K : never }[keyof Table];

/** Every setting; those without a default are optional. The help texts are in settingsTable. */
export type EmulatorSettings = { -readonly [K in WithDefault]: TypeOf<Table[K]['schema']> } & {
  -readonly [K in Exclude<keyof Table, WithDefault>]?: TypeOf<Table[K]['schema']>;
};

export type SettingKey = keyof Table;
export const settingKeys = Object.keys(settingsTable) as SettingKey[];
const row = (key: SettingKey): SettingRow => settingsTable[key];

export const defaultSettings = Object.fromEntries(
  settingKeys.filter((key) => 'default' in row(key)).map((key) => [key, row(key).default]),
) as EmulatorSettings;

/** The config file's (and startEmulator()'s) schema: every row's, nothing else. */
export const settingsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(settingKeys.map((key) => [key, row(key).schema])),
};

/** The settings by what they are for, as `--help` groups them: every setting in exactly one group. */
export const settingGroups: Readonly<Record<string, readonly SettingKey[]>> = {
  'Where it listens': [
    'host',
    'port',
    'grpcPort',
    'grpcTlsPort',
    'testAdminPort',
    'httpsPort',
    'tlsDir',
    'tlsCert',
    'tlsKey',
    'endpoint',
  ],
  'Topics and how the service answers': [
    'caches',
    'cacheDefaultTtlMs',
    'payloadLimitBytes',
    'retention',
    'maxBatch',
    'longPollTimeoutMs',
    'firstSubscribe',
    'discontinuity',
    'contentTypes',
    'maxWaitingSubscribers',
    'requestTimeoutMs',
    'grpcHeartbeatMs',
    'grpcIdleTimeoutMs',
  ],
  'Faults, limits and judging clients': [
    'scenario',
    'limits',
    'limitOperationsPerSecond',
    'limitConcurrentSubscriptions',
    'chaosSeed',
    'chaosRate',
    'journalSize',
  ],
  'Store and state': ['store', 'storePrefix', 'stateFile'],
  'Credentials and security': [
    'apiKeys',
    'signingKey',
    'grpcEmptyToken',
    'controlPlane',
    'adminKey',
    'corsOrigins',
    'controlCorsOrigins',
    'allowedHosts',
  ],
  Logging: ['logLevel', 'logFormat'],
};
