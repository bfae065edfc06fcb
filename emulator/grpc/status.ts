import { EmulatorError, errorRegistry } from '../errors.js';

// The emulator's errors as gRPC statuses, with the `err` metadata the provider's SDKs read
// (client-sdk-javascript cache-service-error-mapper: NOT_FOUND -> NOT_FOUND_ERROR, RESOURCE_EXHAUSTED
// -> LIMIT_EXCEEDED_ERROR with its cause, UNAUTHENTICATED -> AUTHENTICATION_ERROR, PERMISSION_DENIED ->
// PERMISSION_ERROR, UNAVAILABLE -> SERVER_UNAVAILABLE, retried by the SDK). Pure: no gRPC import.

/** gRPC status codes (grpc/status.proto), by name. */
export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

export interface GrpcFailure {
  code: number;
  details: string;
  /** Metadata the SDKs read (`err`), and `retry-after` where the HTTP answer had one. */
  metadata: Record<string, string>;
}

const BY_STATUS: Record<number, number> = {
  400: GrpcCode.INVALID_ARGUMENT,
  401: GrpcCode.UNAUTHENTICATED,
  403: GrpcCode.PERMISSION_DENIED,
  404: GrpcCode.NOT_FOUND,
  405: GrpcCode.UNIMPLEMENTED,
  408: GrpcCode.DEADLINE_EXCEEDED,
  413: GrpcCode.INVALID_ARGUMENT,
  415: GrpcCode.INVALID_ARGUMENT,
  429: GrpcCode.RESOURCE_EXHAUSTED,
  500: GrpcCode.INTERNAL,
  503: GrpcCode.UNAVAILABLE,
};

/** The `err` cause the SDKs read, by the emulator's error code. */
const CAUSE: Record<string, string> = {
  cache_not_found: 'cache_not_found',
  limit_exceeded: 'operations_rate_limit_exceeded',
};

/** Any failure as a gRPC status: an EmulatorError by its HTTP status, anything else INTERNAL. */
export function grpcFailureOf(error: unknown): GrpcFailure {
  if (!(error instanceof EmulatorError))
    return { code: GrpcCode.INTERNAL, details: 'The emulator failed unexpectedly.', metadata: {} };
  const metadata: Record<string, string> = {};
  const cause = CAUSE[error.code];
  if (cause) metadata.err = cause;
  const retryAfter = error.headers?.['retry-after'];
  if (retryAfter !== undefined) metadata['retry-after'] = String(retryAfter);
  // An error injected with a gRPC status of its own (momento-local's `return-error: cancelled`, ...).
  const entry = errorRegistry[error.code];
  const own = 'grpc' in entry ? entry.grpc : undefined;
  const named = ((error as { grpcStatus?: string }).grpcStatus ?? own) as keyof typeof GrpcCode | undefined;
  const code = named !== undefined && named in GrpcCode ? GrpcCode[named] : BY_STATUS[error.status];
  return { code: code ?? GrpcCode.UNKNOWN, details: error.message, metadata };
}
