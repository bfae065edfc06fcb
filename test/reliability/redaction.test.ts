import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../emulator/logging.js';

// The router reads a token from more spellings of the query than `?token=`: every one it
// accepts as a credential must be masked in the URL the logs carry (test/emulator/logging.test.ts
// covers the plain spelling end to end; the fuzz run in fuzz.test.ts greps its debug logs).
describe('redactUrl masks every spelling of the token parameter the router accepts', () => {
  it.each([
    ['a percent-encoded name', '/topics/c/t?tok%65n=secret', '/topics/c/t?tok%65n=[redacted]'],
    [
      'a fully encoded name',
      '/topics/c/t?%74%6F%6B%65%6E=secret&sequence_number=1',
      '/topics/c/t?%74%6F%6B%65%6E=[redacted]&sequence_number=1',
    ],
    ['a query after #', '/topics/c/t#token=secret', '/topics/c/t#token=[redacted]'],
    ['a name after a second ?', '/topics/c/t?a=1?token=secret&b=2', '/topics/c/t?a=1?token=[redacted]&b=2'],
    ['a value holding ? and =', '/topics/c/t?token=sec?x=ret&b=2', '/topics/c/t?token=[redacted]&b=2'],
    ['a token after ; in the path', '/nowhere;token=secret', '/nowhere;token=[redacted]'],
    ['a token after an encoded ; in the path', '/topics/c/t%3Btoken=secret', '/topics/c/t;token=[redacted]'],
    ['a token spelled with an encoded =', '/topics/c/t?token%3Dsecret', '/topics/c/t?token=[redacted]'],
    [
      'a token as a list',
      '/topics/c/t?token[]=secret&token[0]=secret',
      '/topics/c/t?token[]=[redacted]&token[0]=[redacted]',
    ],
  ])('%s', (_what, url, expected) => {
    expect(redactUrl(url)).toBe(expected);
    expect(redactUrl(url)).not.toContain('secret');
  });

  it('leaves other names and malformed escapes alone', () => {
    expect(redactUrl('/topics/c/t?tokens=1&to+ken=2&tok%zzen=3')).toBe('/topics/c/t?tokens=1&to+ken=2&tok%zzen=3');
  });
});
