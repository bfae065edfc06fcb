import { describe, expect, it } from 'vitest';
import { credentialFrom, hasBearerPrefix, withoutBearerPrefix } from '../../emulator/auth/credentials.js';
import { EmulatorError } from '../../emulator/errors.js';

// The placement rule and the Bearer prefix, as plain functions (auth.test.ts covers them over HTTP).

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as EmulatorError).code;
  }
};

describe('hasBearerPrefix', () => {
  it('sees the prefix in any case, before any space, and nothing else', () => {
    for (const value of ['Bearer abc', 'bearer abc', 'BEARER\tabc', 'bEaReR  abc'])
      expect(hasBearerPrefix(value)).toBe(true);
    for (const value of ['', 'abc', 'Bearerabc', 'Bearer', 'beare abc', 'key-Bearer abc', ' Bearer abc'])
      expect(hasBearerPrefix(value)).toBe(false);
  });
});

describe('withoutBearerPrefix', () => {
  it('takes the prefix and every space after it, and leaves anything else as it is', () => {
    expect(withoutBearerPrefix('Bearer key')).toBe('key');
    expect(withoutBearerPrefix('bearer \t key')).toBe('key');
    expect(withoutBearerPrefix('key')).toBe('key');
    expect(withoutBearerPrefix('Bearerkey')).toBe('Bearerkey');
  });
});

describe('credentialFrom', () => {
  it('takes the credential from exactly one place', () => {
    expect(credentialFrom('key', undefined)).toBe('key');
    expect(credentialFrom(undefined, 'key')).toBe('key');
    expect(credentialFrom('', 'key')).toBe('key');
    expect(codeOf(() => credentialFrom('key', 'key'))).toBe('token_in_header_and_query');
    expect(codeOf(() => credentialFrom(undefined, undefined))).toBe('missing_token');
    expect(codeOf(() => credentialFrom(undefined, ['a', 'b']))).toBe('invalid_parameter');
  });

  it('refuses a Bearer prefix, in the header or the query', () => {
    expect(codeOf(() => credentialFrom('Bearer key', undefined))).toBe('invalid_token');
    expect(codeOf(() => credentialFrom(undefined, 'bearer\tkey'))).toBe('invalid_token');
  });
});
