import controlDocument from '../openapi/generated/control.json' with { type: 'json' };
import topicsDocument from '../openapi/generated/topics.json' with { type: 'json' };
import type { ChaosInput, ChaosKind, FaultRuleInput, Permission } from '../openapi/generated/control-types.js';
import { ADMIN_OPERATIONS, CACHE_OPERATIONS, TEST_ADMIN_OPERATIONS, journalledAs } from './requests.js';

// The enums and defaults the code acts on, read from the compiled control document
// (openapi/control.yaml) instead of restated: the YAML is their one home.

const schemas = controlDocument.components.schemas;

export type FaultStatus = NonNullable<FaultRuleInput['status']>;
type FaultCode = NonNullable<FaultRuleInput['code']>;

/** The body's code for each fault status when a rule names none (FaultRuleInput.code). */
export const defaultCodes = schemas.FaultRuleInput.properties.code['x-emulator-default-by-status'] as Record<
  FaultStatus,
  FaultCode
>;

const retryAfterDefaults: Partial<Record<number, number>> =
  schemas.FaultRuleInput.properties.retryAfterSeconds['x-emulator-default-by-status'];

/** The Retry-After an answer of this status carries when a rule names none (429: 1 s). */
export function defaultRetryAfter(status: number): number | undefined {
  return retryAfterDefaults[status];
}

/** What chaos does for the kinds that answer with a status (ChaosKind). */
export const chaosStatusEffects = schemas.ChaosKind['x-emulator-status-effects'] as Partial<
  Record<ChaosKind, { status: FaultStatus; retryAfterSeconds?: number }>
>;

/** ChaosInput's defaults: rate, kinds, maxDelayMs. */
export function chaosInputDefaults(): Required<Pick<ChaosInput, 'rate' | 'kinds' | 'maxDelayMs'>> {
  const { rate, kinds, maxDelayMs } = schemas.ChaosInput.properties;
  return { rate: rate.default, kinds: kinds.default as ChaosKind[], maxDelayMs: maxDelayMs.default };
}

/** The roles a token's permission may name (Permission.role). */
export const roles = schemas.Permission.properties.role.enum as readonly Permission['role'][];

/** A token's lifetime in seconds (TokenRequest.ttlSeconds): the longest and the default. */
export const tokenTtlSeconds = {
  max: schemas.TokenRequest.properties.ttlSeconds.maximum,
  default: schemas.TokenRequest.properties.ttlSeconds.default,
};

/**
 * The clock's last reading (ClockInput.setTo's maximum): a Date ends at 8.64e15 ms, and times
 * are scheduled from the clock up to two DurationMs (a rule's start, then its end) and a token
 * lifetime beyond it.
 */
export const lastClockReadingMs = (schemas.ClockInput.properties.setTo.oneOf[1] as { maximum: number }).maximum;

/** A cache or topic name's length (the service contract's ResourceName): for doors that do not validate by the document (gRPC). */
/** What a read of the state answers of its long lists when it does not say (StatePage). */
export const statePageDefaults = {
  limit: schemas.StatePage.properties.limit.default,
  offset: schemas.StatePage.properties.offset.default,
};

export const resourceNameLength = {
  min: topicsDocument.components.schemas.ResourceName.minLength,
  max: topicsDocument.components.schemas.ResourceName.maxLength,
};

type OperationNotes = { operationId?: string; 'x-emulator-journalled'?: boolean };

/** The control operations that only observe the emulator (`x-emulator-journalled: false`). */
export const unjournalledOperations: ReadonlySet<string> = new Set(
  Object.values(controlDocument.paths as Record<string, Record<string, OperationNotes>>)
    .flatMap((item) => Object.values(item))
    .filter((operation) => operation['x-emulator-journalled'] === false && operation.operationId !== undefined)
    .map((operation) => operation.operationId!),
);

/**
 * What a journal record's `operation` can be: every operationId of the two documents, and the
 * gRPC door's calls that have none (the SDK's set-up calls, its other cache calls).
 */
export const operationIds: ReadonlySet<string> = new Set([
  ...[topicsDocument, controlDocument].flatMap((document) =>
    Object.values(document.paths as Record<string, Record<string, unknown>>).flatMap((item) =>
      Object.values(item).flatMap((operation) => {
        const id = (operation as { operationId?: unknown } | null)?.operationId;
        return typeof id === 'string' ? [id] : [];
      }),
    ),
  ),
  ...ADMIN_OPERATIONS,
  ...TEST_ADMIN_OPERATIONS,
  ...CACHE_OPERATIONS.filter((operation) => journalledAs(operation) === operation),
]);
