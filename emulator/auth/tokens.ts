import type {
  IssuedToken as IssuedTokenSchema,
  TokenRequest as TokenRequestSchema,
} from '../../openapi/generated/control-types.js';
import { createHmac } from 'node:crypto';
import { tokenTtlSeconds } from '../documents.js';
import { EmulatorError } from '../errors.js';
import { hostOf } from '../tls/names.js';
import { parsePermissions, type Permission } from './permissions.js';

// Tokens the emulator signs: an HS256 JWT carrying expiry and permissions, handed out in
// the provider's portable format, base64 of {"api_key": "<jwt>", "endpoint": "<host>"}
// (service-facts "Authentication"). A bare JWT is accepted too.
//
// The provider's SDKs also read endpoints from a JWT credential itself (their legacy tokens): the
// cache endpoint from its `c` claim, the control endpoint from `cp`. The emulator's JWTs carry
// both, naming its gRPC door over TLS when that is on, so a bare JWT given to an SDK as
// MOMENTO_API_KEY reaches the emulator with no endpoint override and no name to resolve. An API
// key has such a form too (sdkKey): a JWT naming the key by its HMAC under the signing key (`k`),
// which authenticates as the key itself.

export const TOKEN_ISSUER = 'topics-emulator';
export const MAX_TOKEN_TTL_SECONDS = tokenTtlSeconds.max; // disposable tokens expire within 25 hours
const ALGORITHM = 'HS256';

// jose is loaded with the first token signed or verified, not at start: an emulator used with
// API keys only never pays for it.
let joseModule: Promise<typeof import('jose')> | undefined;
const jose = () => (joseModule ??= import('jose'));

/** A token request as checked against the document: its ttlSeconds default applied. */
export type TokenRequest = TokenRequestSchema & { ttlSeconds: number };

export type IssuedToken = IssuedTokenSchema;

export interface VerifiedToken {
  tokenId: string | undefined;
  permissions: Permission[];
  /** Epoch milliseconds. */
  expiresAtMs: number;
  notBeforeMs: number | undefined;
}

export const NOT_YET_VALID = 'The auth token is not valid yet.';

/** A signature-valid token refused only because of the time: the verdict may change with the clock. */
export class TimeDependentTokenError extends Error {
  constructor(readonly error: EmulatorError) {
    super(error.message);
  }
}

export function signingKeyBytes(signingKey: string): Uint8Array {
  return new TextEncoder().encode(signingKey);
}

/** Names what is wrong with a token request, or undefined when it is valid. */
export function tokenRequestProblem(ttlSeconds: unknown, tokenId: unknown): string | undefined {
  if (
    typeof ttlSeconds !== 'number' ||
    !Number.isInteger(ttlSeconds) ||
    ttlSeconds < 1 ||
    ttlSeconds > MAX_TOKEN_TTL_SECONDS
  ) {
    return `ttlSeconds must be a whole number from 1 to ${MAX_TOKEN_TTL_SECONDS} (25 hours)`;
  }
  if (tokenId !== undefined && (typeof tokenId !== 'string' || tokenId.length === 0 || tokenId.length > 64)) {
    return 'tokenId must be a string of 1 to 64 characters';
  }
  return undefined;
}

/** The claims an SDK reads its endpoints from: `c` (cache, tokens) and `cp` (control), with the gRPC TLS door's host:port. */
const sdkClaims = (sdkEndpoint: string | undefined) =>
  sdkEndpoint === undefined ? {} : { c: sdkEndpoint, cp: sdkEndpoint };

export async function issueToken(
  request: TokenRequest,
  key: Uint8Array,
  nowMs: number,
  endpoint: string,
  sdkEndpoint?: string,
): Promise<IssuedToken> {
  const problem = tokenRequestProblem(request.ttlSeconds, request.tokenId);
  if (problem) throw new RangeError(problem);
  const nowSeconds = Math.floor(nowMs / 1000);
  const exp = nowSeconds + request.ttlSeconds;
  const { SignJWT } = await jose();
  let jwt = new SignJWT({ perms: request.permissions, ...sdkClaims(sdkEndpoint) })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setIssuer(TOKEN_ISSUER)
    .setIssuedAt(nowSeconds)
    .setNotBefore(nowSeconds)
    .setExpirationTime(exp);
  if (request.tokenId !== undefined) jwt = jwt.setSubject(request.tokenId);
  const signed = await jwt.sign(key);
  return { token: toPortable(signed, endpoint), expiresAt: new Date(exp * 1000).toISOString() };
}

/**
 * The endpoint written into portable tokens when none is configured. Clients build
 * `https://api.cache.<endpoint>` from it, and a WHATWG host that ends in a number must be an IPv4
 * address, so an IP address (or a wildcard) becomes `localhost`: the URL parses, and a client given
 * a base-URL override is not stopped before it sends anything. A host name is kept as it is.
 */
export function defaultEndpoint(host: string, port: number): string {
  const isAddress = host.includes(':') || /^[\d.]+$/.test(host);
  return `${isAddress ? 'localhost' : host}:${port}`;
}

/**
 * The endpoint the tokens carry: `--endpoint` when given; else the HTTPS port's while it is on
 * (clients build `https://api.cache.<endpoint>` from it); else the HTTP port's.
 */
export function tokenEndpoint(endpoint: string | undefined, host: string, port: number, httpsPort?: number): string {
  return endpoint ?? (httpsPort !== undefined ? `localhost:${httpsPort}` : defaultEndpoint(host, port));
}

/** An API key's tag in its SDK form: HMAC-SHA256 under the signing key, so the form names the key without carrying it. */
export function apiKeyTag(apiKey: string, key: Uint8Array): string {
  return createHmac('sha256', key).update(apiKey).digest('base64url');
}

/** An API key as a JWT the provider's SDKs take from MOMENTO_API_KEY: it names the gRPC TLS door (`c`, `cp`) and the key (`k`). */
export async function sdkKey(apiKey: string, key: Uint8Array, sdkEndpoint: string): Promise<string> {
  const { SignJWT } = await jose();
  return new SignJWT({ k: apiKeyTag(apiKey, key), ...sdkClaims(sdkEndpoint) })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setIssuer(TOKEN_ISSUER)
    .sign(key);
}

/** The key tag of an API key's SDK form, when `jwt` is one (a `k` claim); undefined for a token. Throws invalid_token for a bad signature. */
export async function sdkKeyTag(jwt: string, key: Uint8Array): Promise<string | undefined> {
  const { decodeJwt, jwtVerify } = await jose();
  let tag: unknown;
  try {
    tag = decodeJwt(jwt)['k'];
  } catch {
    return undefined; // not a JWT at all: verifyToken says so
  }
  if (typeof tag !== 'string') return undefined;
  try {
    await jwtVerify(jwt, key, { algorithms: [ALGORITHM], issuer: TOKEN_ISSUER });
  } catch {
    throw new EmulatorError('invalid_token');
  }
  return tag;
}

/**
 * The host:port an SDK reaches the gRPC TLS door at: `--endpoint`'s host when given; else
 * `localhost` when the emulator listens on loopback or every interface (every machine resolves
 * it, and TLS clients may not name an IP address), else the host it listens on; with the door's
 * port. The local authority's certificate names localhost, the loopback addresses and the
 * endpoint's host.
 */
export function sdkEndpoint(endpoint: string | undefined, host: string, grpcTlsPort: number): string {
  const loopbackOrAll = ['127.0.0.1', '::1', 'localhost', '0.0.0.0', '::'].includes(host);
  const chosen = endpoint === undefined ? (loopbackOrAll ? 'localhost' : host) : hostOf(endpoint);
  return `${chosen.includes(':') ? `[${chosen}]` : chosen}:${grpcTlsPort}`;
}

export function toPortable(jwt: string, endpoint: string): string {
  return Buffer.from(JSON.stringify({ api_key: jwt, endpoint })).toString('base64');
}

/** The JWT inside a credential: the credential itself, or the api_key of a portable token. */
export function jwtFrom(credential: string): string | undefined {
  if (/^[\w-]+\.[\w-]+\.[\w-]+$/.test(credential)) return credential;
  if (!/^[A-Za-z0-9+/_-]+=*$/.test(credential)) return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(credential, 'base64').toString('utf8'));
    const jwt = (decoded as { api_key?: unknown } | null)?.api_key;
    return typeof jwt === 'string' && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(jwt) ? jwt : undefined;
  } catch {
    return undefined;
  }
}

export async function verifyToken(jwt: string, key: Uint8Array, nowMs: number): Promise<VerifiedToken> {
  const { jwtVerify, errors: joseErrors } = await jose();
  try {
    const { payload } = await jwtVerify(jwt, key, {
      algorithms: [ALGORITHM],
      issuer: TOKEN_ISSUER,
      requiredClaims: ['exp'],
      currentDate: new Date(nowMs),
    });
    const parsed = parsePermissions(payload.perms);
    if ('problem' in parsed) throw new EmulatorError('invalid_token', `The auth token is invalid: ${parsed.problem}.`);
    return {
      tokenId: payload.sub,
      permissions: parsed.permissions,
      expiresAtMs: (payload.exp as number) * 1000,
      notBeforeMs: payload.nbf === undefined ? undefined : payload.nbf * 1000,
    };
  } catch (error) {
    if (error instanceof EmulatorError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new TimeDependentTokenError(new EmulatorError('expired_token'));
    if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === 'nbf') {
      throw new TimeDependentTokenError(new EmulatorError('invalid_token', NOT_YET_VALID));
    }
    throw new EmulatorError('invalid_token');
  }
}
