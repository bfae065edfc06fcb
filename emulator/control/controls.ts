import { defaultEndpoint, issueToken, signingKeyBytes, type IssuedToken, type TokenRequest } from '../auth/tokens.js';
import type { ClockState } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { EmulatorError } from '../errors.js';
import type { EmulatorEvents } from '../events.js';
import type { ChaosInput, ChaosView } from '../faults/chaos.js';
import type { ScheduledTopicReset, TopicReset } from '../faults/page-changes.js';
import type { FaultRuleInput, FaultView } from '../faults/rule.js';
import { limitsProfileOf, type LimitsProfile, type LimitsView } from '../limits/account-limits.js';
import { applyScenario, type ScenarioApplied, type ScenarioInput } from '../scenario/apply.js';
import { readScenarioFile } from '../scenario/load.js';
import { TokenWithdrawals, type TokenWithdrawal } from './token-withdrawals.js';
import { checked } from './validation.js';

// The control plane's operations, once. The HTTP handlers (openapi/control.yaml), the methods
// of the object startEmulator() returns and scenario files all call these; every input is
// checked against the document's schemas here, whichever way it came.

export interface ClockInput {
  mode?: 'real' | 'virtual';
  setTo?: string | number;
  advanceMs?: number;
}

/** A token request; ttlSeconds defaults to one hour. */
export type TokenInput = Omit<TokenRequest, 'ttlSeconds'> & { ttlSeconds?: number };

export interface TopicResetInput {
  afterSequenceNumber?: number;
  afterMs?: number;
}

export interface TopicState {
  cache: string;
  topic: string;
  page: number;
  firstSequenceNumber: number | null;
  lastSequenceNumber: number | null;
  retainedCount: number;
  nextSequenceNumber: number;
  waitingSubscribers: number;
}

export interface WaitingSubscriberState {
  cache: string;
  topic: string;
  sequenceNumber: number;
  sequencePage: number;
  waitedMs: number;
}

export interface EmulatorState {
  caches: string[];
  topics: TopicState[];
  waitingSubscribers: WaitingSubscriberState[];
  faults: FaultView[];
  scheduled: { topicResets: ScheduledTopicReset[]; tokenWithdrawals: TokenWithdrawal[] };
  limits: LimitsView;
  chaos: ChaosView;
  clock: ClockState;
}

export interface ResetResult {
  answeredSubscribers: number;
  removedFaults: number;
  clock: ClockState;
}

const CONTROL_PLANE = 'control plane';
// The clock's last reading. A Date ends at 8.64e15 ms, and times are scheduled from the clock
// up to two DurationMs (a rule's start, then its end: a year each) and a token lifetime (25 h)
// beyond it: past this, the operations that show those times would fail.
const LAST_READING_MS = 8_640_000_000_000_000 - 2 * 31_536_000_000 - 90_000_000;

export class EmulatorControls {
  /** The endpoint written into the tokens it signs (host:port once listening). */
  endpoint: string;
  private readonly withdrawals: TokenWithdrawals;
  private startupScenario: ScenarioInput | undefined;

  constructor(private readonly context: EmulatorContext) {
    const { settings, auth, clock, log } = context;
    this.endpoint = settings.endpoint ?? defaultEndpoint(settings.host, settings.port);
    this.withdrawals = new TokenWithdrawals(auth, clock, log);
  }

  /** Back to the state just after start-up; see the reset operation in openapi/control.yaml. */
  reset(): ResetResult {
    const { faults, pageChanges, store, auth, clock, limits, log } = this.context;
    const removedFaults = faults.reset();
    pageChanges.reset();
    this.withdrawals.reset();
    const answeredSubscribers = store.waitingCount();
    store.clear();
    auth.reset();
    clock.useRealTime();
    limits.reset(limitsProfileOf(this.context.settings));
    this.applyStartup();
    this.changed('reset');
    log.info(
      { answeredSubscribers, removedFaults },
      `reset: back to a clean start (${answeredSubscribers} waiting subscriber(s) answered, ${removedFaults} fault rule(s) removed)`,
    );
    return { answeredSubscribers, removedFaults, clock: clock.state() };
  }

  state(): EmulatorState {
    const { store, clock, faults, pageChanges, limits } = this.context;
    const now = clock.now();
    const waitingSubscribers: WaitingSubscriberState[] = [];
    for (const topic of store.topics()) {
      for (const subscriber of topic.waiting) {
        const { sequenceNumber, sequencePage } = subscriber.cursor;
        waitingSubscribers.push({
          cache: topic.cache,
          topic: topic.name,
          sequenceNumber,
          sequencePage,
          waitedMs: now - subscriber.since,
        });
      }
    }
    return {
      caches: store.cacheNames(),
      topics: store.snapshot().map((t) => ({
        cache: t.cache,
        topic: t.topic,
        page: t.page,
        firstSequenceNumber: t.firstRetained,
        lastSequenceNumber: t.lastRetained,
        retainedCount: t.retainedCount,
        nextSequenceNumber: t.nextSequenceNumber,
        waitingSubscribers: t.waitingSubscribers,
      })),
      waitingSubscribers,
      faults: faults.list(),
      scheduled: { topicResets: pageChanges.scheduled(), tokenWithdrawals: this.withdrawals.scheduled() },
      limits: limits.view(),
      chaos: faults.chaosView(),
      clock: clock.state(),
    };
  }

  /** Signs a token in the portable format; it expires ttlSeconds (default 3600) after the clock's reading. */
  async issueToken(request: TokenInput): Promise<IssuedToken & { tokenId?: string }> {
    const valid = checked<TokenRequest>('TokenRequest', request);
    const issued = await issueToken(
      valid,
      signingKeyBytes(this.context.settings.signingKey),
      this.context.clock.now(),
      this.endpoint,
    );
    this.changed('issueToken');
    return { ...issued, ...(valid.tokenId !== undefined ? { tokenId: valid.tokenId } : {}) };
  }

  /** Every token with this id answers 401 expired_token, now or after `afterMs` of clock time. */
  expireToken(tokenId: string, input: { afterMs?: number } = {}, why = CONTROL_PLANE): TokenWithdrawal {
    return this.withdraw(tokenId, 'expired', input, why);
  }

  /** Every token with this id answers 401 invalid_token, now or after `afterMs` of clock time. */
  revokeToken(tokenId: string, input: { afterMs?: number } = {}, why = CONTROL_PLANE): TokenWithdrawal {
    return this.withdraw(tokenId, 'revoked', input, why);
  }

  /** The topic changes page now, after the message numbered K, or after some clock time. */
  resetTopic(
    cache: string,
    topic: string,
    input: TopicResetInput = {},
    why = CONTROL_PLANE,
  ): TopicReset | ScheduledTopicReset {
    checked('ResourceName', cache);
    checked('ResourceName', topic);
    const when = checked<TopicResetInput>('TopicResetInput', definedOnly(input));
    const { pageChanges } = this.context;
    const result =
      when.afterSequenceNumber !== undefined
        ? pageChanges.afterSequenceNumber(cache, topic, when.afterSequenceNumber, why)
        : when.afterMs
          ? pageChanges.afterTime(cache, topic, when.afterMs, why)
          : pageChanges.changeNow(cache, topic, why);
    this.changed('resetTopic');
    return result;
  }

  clock(): ClockState {
    return this.context.clock.state();
  }

  /** Applies mode, then setTo, then advanceMs (see setClock in openapi/control.yaml). */
  setClock(input: ClockInput): ClockState {
    const change = checked<ClockInput>('ClockInput', definedOnly(input));
    const { clock, log } = this.context;
    const setTo =
      change.setTo === undefined
        ? undefined
        : typeof change.setTo === 'number'
          ? change.setTo
          : Date.parse(change.setTo);
    if (change.mode !== 'real' && (setTo ?? clock.now()) + (change.advanceMs ?? 0) > LAST_READING_MS) {
      throw new EmulatorError(
        'invalid_body',
        `The request body is invalid: the clock cannot pass ${new Date(LAST_READING_MS).toISOString()}, near the last date there is.`,
      );
    }
    if (change.mode === 'virtual') clock.freeze();
    if (setTo !== undefined) clock.set(setTo);
    if (change.advanceMs !== undefined) clock.advance(change.advanceMs);
    if (change.mode === 'real') clock.useRealTime();
    const state = clock.state();
    log.info({ change, clock: state }, `clock: ${state.mode} at ${state.now}`);
    this.changed('setClock');
    return state;
  }

  advanceClock(ms: number): ClockState {
    return this.setClock({ advanceMs: ms });
  }

  addFault(rule: FaultRuleInput): FaultView {
    return this.changed('addFault', this.context.faults.add(checked<FaultRuleInput>('FaultRuleInput', rule)));
  }

  faults(): FaultView[] {
    return this.context.faults.list();
  }

  fault(id: string): FaultView {
    return this.context.faults.get(id);
  }

  removeFault(id: string): FaultView {
    return this.changed('removeFault', this.context.faults.remove(id));
  }

  clearFaults(): { removed: number } {
    return this.changed('clearFaults', { removed: this.context.faults.clear() });
  }

  limits(): LimitsView {
    return this.context.limits.view();
  }

  setLimits(change: Partial<LimitsProfile>): LimitsView {
    return this.changed('setLimits', this.context.limits.set(checked<Partial<LimitsProfile>>('LimitsInput', change)));
  }

  chaos(): ChaosView {
    return this.context.faults.chaosView();
  }

  startChaos(input: ChaosInput): ChaosView {
    return this.changed('startChaos', this.context.faults.startChaos(checked<ChaosInput>('ChaosInput', input)));
  }

  stopChaos(): ChaosView {
    return this.changed('stopChaos', this.context.faults.stopChaos());
  }

  applyScenario(scenario: ScenarioInput): ScenarioApplied {
    return this.changed('applyScenario', applyScenario(this, checked<ScenarioInput>('Scenario', scenario)));
  }

  async loadScenarioFile(path: string): Promise<ScenarioApplied> {
    return this.applyScenario(await readScenarioFile(path));
  }

  /** The configuration's own faults (chaos seed, scenario): applied at start and after every reset. */
  async startUp(): Promise<void> {
    const { scenario } = this.context.settings;
    if (scenario !== undefined) this.startupScenario = await readScenarioFile(scenario);
    this.applyStartup();
  }

  /** The emulator's event stream (GET /_emulator/events listens to it). */
  get events(): EmulatorEvents {
    return this.context.events;
  }

  /** Stops every timer and delay (the emulator is closing). */
  dispose(): void {
    this.context.faults.reset();
    this.context.pageChanges.reset();
    this.withdrawals.reset();
  }

  private applyStartup(): void {
    const { chaosSeed, chaosRate } = this.context.settings;
    if (chaosSeed !== undefined) this.startChaos({ seed: chaosSeed, rate: chaosRate });
    if (this.startupScenario) applyScenario(this, this.startupScenario);
  }

  private withdraw(
    tokenId: string,
    how: 'expired' | 'revoked',
    input: { afterMs?: number },
    why: string,
  ): TokenWithdrawal {
    checked('TokenId', tokenId);
    const { afterMs } = checked<{ afterMs?: number }>('WithdrawalInput', definedOnly(input));
    return this.changed(
      how === 'expired' ? 'expireToken' : 'revokeToken',
      this.withdrawals.withdraw(tokenId, how, afterMs, why),
    );
  }

  /** Tells the event stream that the operation changed something; returns its result. */
  private changed<T>(operationId: string, result?: T): T {
    const { events, clock } = this.context;
    if (events.active) events.emit({ kind: 'control', at: clock.now(), operationId });
    return result as T;
  }
}

// Optional members given as undefined (e.g. `{ afterMs: undefined }`) mean "not given".
function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as T;
}

/** The operations the object startEmulator() returns exposes as methods. */
export const controlMethods = [
  'reset',
  'state',
  'issueToken',
  'expireToken',
  'revokeToken',
  'resetTopic',
  'clock',
  'setClock',
  'advanceClock',
  'addFault',
  'faults',
  'fault',
  'removeFault',
  'clearFaults',
  'limits',
  'setLimits',
  'chaos',
  'startChaos',
  'stopChaos',
  'applyScenario',
  'loadScenarioFile',
] as const;

export type EmulatorControlApi = Pick<EmulatorControls, (typeof controlMethods)[number]>;

export function bindControls(controls: EmulatorControls): EmulatorControlApi {
  return Object.fromEntries(
    controlMethods.map((name) => [name, controls[name].bind(controls)]),
  ) as unknown as EmulatorControlApi;
}
