import { describe, expect, it } from 'vitest';
import controlDocument from '../../openapi/generated/control.json' with { type: 'json' };
import {
  chaosInputDefaults,
  chaosStatusEffects,
  defaultCodes,
  defaultRetryAfter,
  lastClockReadingMs,
  roles,
  tokenTtlSeconds,
} from '../../emulator/documents.js';
import { errorRegistry } from '../../emulator/errors.js';

// The facts the code reads from openapi/control.yaml instead of restating them: present, and
// consistent with the rest of the document and the error registry.
const schemas = controlDocument.components.schemas;

describe('the facts read from the control document', () => {
  it('gives every fault status a default code that answers that status', () => {
    expect(Object.keys(defaultCodes).map(Number)).toEqual(schemas.FaultRuleInput.properties.status.enum);
    for (const [status, code] of Object.entries(defaultCodes)) expect(errorRegistry[code].status).toBe(Number(status));
  });

  it('answers 429 with Retry-After 1 by default, and no other status', () => {
    expect(defaultRetryAfter(429)).toBe(1);
    expect(defaultRetryAfter(500)).toBeUndefined();
    expect(defaultRetryAfter(503)).toBeUndefined();
  });

  it("names chaos kinds' effects with kinds and statuses the document has", () => {
    for (const [kind, effect] of Object.entries(chaosStatusEffects)) {
      expect(schemas.ChaosKind.enum).toContain(kind);
      expect(schemas.FaultRuleInput.properties.status.enum).toContain(effect.status);
    }
    expect(chaosInputDefaults()).toEqual({ rate: 0.1, kinds: schemas.ChaosKind.enum, maxDelayMs: 2000 });
  });

  it("keeps the clock's last reading two DurationMs and a token lifetime short of the last Date", () => {
    expect(lastClockReadingMs).toBe(8.64e15 - 2 * schemas.DurationMs.maximum - tokenTtlSeconds.max * 1000);
    expect(tokenTtlSeconds).toEqual({ max: 90_000, default: 3600 });
  });

  it('lists the roles of a permission', () => {
    expect(roles).toEqual(['publishsubscribe', 'subscribeonly', 'publishonly', 'readwrite', 'readonly', 'writeonly']);
  });
});
