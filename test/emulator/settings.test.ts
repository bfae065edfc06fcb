import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { defaultSettings, resolveSettings, SettingsError, settingsSchema } from '../../emulator/settings.js';

// settings.ts compiles its schema without the meta-schema check (start-up time); the check
// runs here instead, so a malformed rule cannot slip in unnoticed.

describe('settings', () => {
  it('has a schema that is valid JSON Schema (checked against the meta-schema)', () => {
    const ajv = new Ajv({ allErrors: true, strict: true });
    expect(ajv.validateSchema(settingsSchema)).toBe(true);
    expect(() => ajv.compile(settingsSchema)).not.toThrow();
  });

  it('accepts the defaults and names every problem of bad settings', () => {
    expect(resolveSettings()).toEqual(defaultSettings);
    expect(() => resolveSettings({ port: -1, retention: 0 })).toThrow(SettingsError);
    expect(() => resolveSettings({ port: -1, retention: 0 })).toThrow(/port must be >= 0.*retention must be >= 1/);
    expect(() => resolveSettings({ colour: 'blue' } as never)).toThrow("unknown setting 'colour'");
    expect(() => resolveSettings({ requestTimeoutMs: -1 })).toThrow(/requestTimeoutMs must be >= 0/);
    expect(resolveSettings({ requestTimeoutMs: 0 }).requestTimeoutMs).toBe(0);
  });
});
