import type { ErrorObject } from 'ajv';
import { settings as validateSettings } from './generated/settings-validator.js';
import { LIMIT_TIERS, settingsSchema, defaultSettings, type EmulatorSettings } from './settings-table.js';

// Every setting's rules and default are in settings-table.ts. Flags, environment variables,
// config files and startEmulator() options all end up validated here.

export { DEV_API_KEY, DEV_SIGNING_KEY, LIMIT_TIERS, defaultSettings, settingsSchema } from './settings-table.js';
export type { EmulatorSettings } from './settings-table.js';

/** The support plans of the provider's quotas page (service-facts "Limits"); 'account' is the default plan. */
export type LimitTier = keyof typeof LIMIT_TIERS;

// Validated by the code generated from settingsSchema (no Ajv at start-up);
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
  if (merged.store !== 'memory' && merged.stateFile !== undefined)
    throw new SettingsError(
      'Invalid settings: stateFile keeps the in-memory store across restarts; with a Redis store, Redis keeps the topics (choose one)',
    );
  if ((merged.tlsCert === undefined) !== (merged.tlsKey === undefined))
    throw new SettingsError('Invalid settings: tlsCert and tlsKey go together (a certificate and its private key)');
  return merged as unknown as EmulatorSettings;
}
