import { EmulatorError } from '../errors.js';

// The contract's placement rule: the token is in exactly one of the Authorization header
// (the raw value) and the `token` query parameter.
export function credentialFrom(authorizationHeader: string | undefined, tokenQuery: unknown): string {
  if (Array.isArray(tokenQuery))
    throw new EmulatorError('invalid_parameter', 'The token query parameter may be given only once.');
  const header = authorizationHeader === '' ? undefined : authorizationHeader;
  // The router's query parser gives strings (an array when repeated, refused above).
  const query = typeof tokenQuery === 'string' && tokenQuery !== '' ? tokenQuery : undefined;
  if (header !== undefined && query !== undefined) throw new EmulatorError('token_in_header_and_query');
  const credential = header ?? query;
  if (credential === undefined) throw new EmulatorError('missing_token');
  if (hasBearerPrefix(credential)) {
    throw new EmulatorError(
      'invalid_token',
      "The auth token is invalid: send the raw token in the Authorization header, without a 'Bearer ' prefix.",
    );
  }
  return credential;
}

/** The prefix the contract does not take: 'Bearer' in any case, then spaces or tabs. */
const BEARER_PREFIX = /^bearer\s+/i;

/** Whether a credential starts with a 'Bearer ' prefix, which the contract does not take. */
export function hasBearerPrefix(value: string): boolean {
  // On every request: the first letter is compared before the pattern runs.
  const first = value.charCodeAt(0);
  return (first === 0x62 || first === 0x42) && BEARER_PREFIX.test(value);
}

/** The credential without a 'Bearer ' prefix: to name who sent a refused one by what they meant. */
export function withoutBearerPrefix(value: string): string {
  return value.replace(BEARER_PREFIX, '');
}
