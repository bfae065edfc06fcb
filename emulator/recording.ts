import type { Principal } from './auth/authenticator.js';
import { withoutBearerPrefix } from './auth/credentials.js';
import { jwtFrom } from './auth/tokens.js';
import type { EmulatorError } from './errors.js';
import type { ExchangeFacts } from './exchange.js';
import { redactUrl } from './logging.js';
import type { ReadAnswer } from './topics/subscriber.js';

// Filling in an exchange's facts (exchange.ts), whichever door it came through: who called
// (never the credential), what a read delivered, which error answered. The HTTP door
// (http/exchanges.ts) and the gRPC door (grpc/calls.ts) each open the facts their own way.

/**
 * A path or name as the facts keep it: a token put there by mistake (`/topics/c/t;token=...`,
 * `t%3Ftoken=...`, `t#token=...`, a topic named so) is kept by nothing, as the journal, the event
 * stream and the client judge read these facts.
 */
export const hidden = (text: string): string => (/[;?#]|%3b|%3f|%23/i.test(text) ? redactUrl(text) : text);

/** Names a credential that has no token id without revealing it (the Authenticator). */
export interface ClientDigest {
  clientDigest(credential: string): string;
}

function identityOf(credential: string, principal: Principal | undefined, digestOf: ClientDigest): string {
  if (principal?.kind === 'token' && principal.tokenId !== undefined) return `token:${principal.tokenId}`;
  return `${principal?.kind === 'apiKey' ? 'key' : 'token'}:#${digestOf.clientDigest(credential)}`;
}

// A principal is the authenticator's verdict on one credential (authenticator.ts builds one
// object per credential verified, and caches it by the credential's digest), so the identity it
// names is worked out once per verdict: no digest and no new string per request. Keyed weakly by
// the verdict, never by the credential; a verdict the authenticator forgets is forgotten here too.
const identities = new WeakMap<Principal, string>();

/** Who called, without the credential: a token's id, else a digest of the credential. */
export function clientIdentity(credential: string, principal: Principal | undefined, digestOf: ClientDigest): string {
  if (principal === undefined) return identityOf(credential, undefined, digestOf);
  let identity = identities.get(principal);
  if (identity === undefined) identities.set(principal, (identity = identityOf(credential, principal, digestOf)));
  return identity;
}

export function recordClient(
  facts: ExchangeFacts,
  credential: string,
  principal: Principal | undefined,
  digestOf: ClientDigest,
): void {
  facts.client = clientIdentity(credential, principal, digestOf);
}

/** The id a token claims, read without verifying it: only to name who called. */
function claimedTokenId(jwt: string): string | undefined {
  try {
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof claims.sub === 'string' ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Who called with a credential that was refused (401, or placed wrongly), named as its accepted
 * uses are: a token by the id it claims, else a digest. A refused credential is still a client:
 * the client rules judge what it does after the refusal.
 */
export function recordRefusedClient(facts: ExchangeFacts, presented: string, digestOf: ClientDigest): void {
  const credential = withoutBearerPrefix(presented);
  const jwt = jwtFrom(credential);
  const tokenId = jwt === undefined ? undefined : claimedTokenId(jwt);
  if (tokenId !== undefined) facts.client = `token:${tokenId}`;
  else facts.client = `${jwt === undefined ? 'key' : 'token'}:#${digestOf.clientDigest(credential)}`;
}

export function recordRead(facts: ExchangeFacts, read: ReadAnswer): void {
  facts.items = Array.from({ length: read.items }, (_, i) => read.from + i);
  facts.page = read.page;
  const gap = read.discontinuity;
  facts.discontinuity = gap
    ? {
        lastTopicSequence: gap.last_topic_sequence,
        newTopicSequence: gap.new_topic_sequence,
        newSequencePage: gap.new_sequence_page,
      }
    : null;
}

export function recordError(facts: ExchangeFacts, error: EmulatorError): void {
  facts.code = error.code;
  const retryAfter = error.headers['retry-after'];
  facts.retryAfterSeconds = retryAfter === undefined ? null : Number(retryAfter);
}
