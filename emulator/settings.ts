import type { ErrorObject } from 'ajv';
import { settings as validateSettings } from './generated/settings-validator.js';
import { settingsSchema } from './settings-schema.js';
import type { DiscontinuityMode, FirstSubscribe } from './topics/read-plan.js';

export { settingsSchema };

// Every setting of the emulator and its default (its rules: settings-schema.ts). Flags,
// environment variables, config files and startEmulator() options all end up validated here.

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
  /** 'with-item': a discontinuity always comes with the item it announces (waits for it); 'alone': at once. */
  discontinuity: DiscontinuityMode;
  /** 'lenient': unlisted content types are published as binary (one warning per type); 'strict': 400. */
  contentTypes: 'lenient' | 'strict';
  /** Most subscribers waiting at once, across every topic; one more gets 429. */
  maxWaitingSubscribers: number;
  /** How long a client may take to send a whole request (headers and body); then 408. 0 = no limit. Waiting for the answer does not count. */
  requestTimeoutMs: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Origins allowed on the service routes besides local ones (localhost, 127.x, [::1], *.localhost); ['*'] allows any. */
  corsOrigins: string[];
  /** Origins allowed on the control plane (/_emulator/) besides its own pages; ['*'] allows any (needs an admin key). */
  controlCorsOrigins: string[];
  /** Host headers served besides localhost, *.localhost and IP addresses: `name`, `.name` (and subdomains), `*` (any). */
  allowedHosts: string[];
  /** The `endpoint` written into portable tokens; defaults to host:port. */
  endpoint?: string;
  /** Serve the control plane under /_emulator/ (health is always served). */
  controlPlane: boolean;
  /** Required by the control plane in X-Emulator-Admin-Key; mandatory beyond loopback. */
  adminKey?: string;
  /** A scenario file (YAML or JSON) applied at start and again on every reset. */
  scenario?: string;
  /**
   * Switches the provider's account limits on (429 when exceeded), with the quotas of a support
   * plan: 'account' is the default plan's; 'basic' and 'pro' the higher plans' (LIMIT_TIERS).
   */
  limits: 'off' | LimitTier;
  /** Overrides the plan's operations per second. */
  limitOperationsPerSecond?: number;
  /** Overrides the plan's concurrent connections. */
  limitConcurrentSubscriptions?: number;
  /** Seeded chaos from the start: a random mix of faults, replayable with the same seed. */
  chaosSeed?: number;
  /** With chaosSeed: the probability that a request gets a fault. */
  chaosRate: number;
  /** Requests the journal keeps (the newest); 0 switches the journal, and the client rules, off. */
  journalSize: number;
}

/** The support plans of the provider's quotas page (service-facts "Limits"); 'account' is the default plan. */
export type LimitTier = 'account' | 'basic' | 'pro';
export const LIMIT_TIERS: Readonly<
  Record<LimitTier, { operationsPerSecond: number; concurrentSubscriptions: number }>
> = {
  account: { operationsPerSecond: 100, concurrentSubscriptions: 100 },
  basic: { operationsPerSecond: 1_000, concurrentSubscriptions: 1_000 },
  pro: { operationsPerSecond: 10_000, concurrentSubscriptions: 10_000 },
};

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
  firstSubscribe: 'next',
  discontinuity: 'with-item',
  contentTypes: 'lenient',
  maxWaitingSubscribers: 20_000,
  requestTimeoutMs: 60_000,
  logLevel: 'info',
  corsOrigins: [],
  controlCorsOrigins: [],
  allowedHosts: [],
  controlPlane: true,
  limits: 'off',
  chaosRate: 0.1,
  journalSize: 10_000,
};

// Validated by the code generated from settings-schema.ts (no Ajv at start: issue 6, start-up);
// a test fails when the generated file is stale.
const validate = validateSettings as ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };

export class SettingsError extends Error {
  override name = 'SettingsError';
}

/** The description of the pattern an item at `/setting/index` must match. */
function patternDescription(instancePath: string): string | undefined {
  const setting = instancePath.split('/')[1] ?? '';
  const schema = (settingsSchema.properties as Record<string, { items?: { description?: string } }>)[setting];
  return schema?.items?.description;
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
      if (e.keyword === 'additionalProperties') return `unknown setting '${String(e.params.additionalProperty)}'`;
      // A pattern is no message for a person: the schema's description says what is expected.
      const expected = e.keyword === 'pattern' ? patternDescription(e.instancePath) : undefined;
      if (expected) return `${where} must be ${expected}`;
      return `${where} ${e.message}`;
    });
    throw new SettingsError(`Invalid settings: ${problems.join('; ')}`);
  }
  return merged as unknown as EmulatorSettings;
}
