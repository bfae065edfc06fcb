import { Ajv } from 'ajv';
import type { FirstSubscribe } from './topics/read-plan.js';

// Every setting of the emulator, its default and its rules, in one place. Flags, environment
// variables, config files and startEmulator() options all end up validated here.

export interface EmulatorSettings {
  host: string;
  /** 0 picks a free port. */
  port: number;
  caches: string[];
  /** API keys: full access. The first is the one shown at start-up. */
  apiKeys: string[];
  /** HS256 secret for the tokens the emulator signs. */
  signingKey: string;
  /** Largest message body, in bytes. */
  payloadLimitBytes: number;
  /** Messages kept per topic for resume. */
  retention: number;
  /** Most items in one subscribe response. */
  maxBatch: number;
  /** How long a subscribe request waits with nothing to answer; 0 = forever. */
  longPollTimeoutMs: number;
  firstSubscribe: FirstSubscribe;
  /** Most subscribers waiting at once, across every topic; one more gets 429. */
  maxWaitingSubscribers: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Origins allowed by CORS; ['*'] allows any. */
  corsOrigins: string[];
  /** The `endpoint` written into portable tokens; defaults to host:port. */
  endpoint?: string;
  /** Serve the control plane under /_emulator/ (health is always served). */
  controlPlane: boolean;
  /** Required by the control plane in X-Emulator-Admin-Key; mandatory beyond loopback. */
  adminKey?: string;
  /** A scenario file (YAML or JSON) applied at start and again on every reset. */
  scenario?: string;
  /** 'account' switches the provider's account limits on (429 when exceeded). */
  limits: 'off' | 'account';
  limitOperationsPerSecond: number;
  limitConcurrentSubscriptions: number;
  /** Seeded chaos from the start: a random mix of faults, replayable with the same seed. */
  chaosSeed?: number;
  /** With chaosSeed: the probability that a request gets a fault. */
  chaosRate: number;
}

export const DEV_API_KEY = 'topics-emulator-dev-key';
export const DEV_SIGNING_KEY = 'topics-emulator-dev-signing-key-not-secret';

export const defaultSettings: EmulatorSettings = {
  host: '127.0.0.1',
  port: 4545,
  caches: ['default-cache'],
  apiKeys: [DEV_API_KEY],
  signingKey: DEV_SIGNING_KEY,
  payloadLimitBytes: 4096,
  retention: 100,
  maxBatch: 100,
  longPollTimeoutMs: 60_000,
  firstSubscribe: 'latest',
  maxWaitingSubscribers: 20_000,
  logLevel: 'info',
  corsOrigins: ['*'],
  controlPlane: true,
  limits: 'off',
  limitOperationsPerSecond: 10,
  limitConcurrentSubscriptions: 100,
  chaosRate: 0.1,
};

const name = { type: 'string', minLength: 1, maxLength: 255 } as const;
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
    maxWaitingSubscribers: { type: 'integer', minimum: 1, maximum: 10_000_000 },
    logLevel: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
    corsOrigins: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
    endpoint: { type: 'string', minLength: 1 },
    controlPlane: { type: 'boolean' },
    adminKey: { type: 'string', minLength: 8 },
    scenario: { type: 'string', minLength: 1 },
    limits: { enum: ['off', 'account'] },
    limitOperationsPerSecond: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    limitConcurrentSubscriptions: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    chaosSeed: { type: 'integer', minimum: 0, maximum: 4_294_967_295 },
    chaosRate: { type: 'number', minimum: 0, maximum: 1 },
  },
} as const;

const validate = new Ajv({ allErrors: true }).compile(settingsSchema);

export class SettingsError extends Error {
  override name = 'SettingsError';
}

/** Defaults overlaid with `overrides`, validated; throws SettingsError naming every problem. */
export function resolveSettings(...overrides: Partial<EmulatorSettings>[]): EmulatorSettings {
  const merged: Record<string, unknown> = { ...defaultSettings };
  for (const layer of overrides) {
    for (const [key, value] of Object.entries(layer)) if (value !== undefined) merged[key] = value;
  }
  if (!validate(merged)) {
    const problems = (validate.errors ?? []).map((e) => {
      const where = e.instancePath ? e.instancePath.slice(1).replaceAll('/', '.') : 'settings';
      return e.keyword === 'additionalProperties' ? `unknown setting '${String(e.params.additionalProperty)}'` : `${where} ${e.message}`;
    });
    throw new SettingsError(`Invalid settings: ${problems.join('; ')}`);
  }
  return merged as unknown as EmulatorSettings;
}
