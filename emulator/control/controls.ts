import type {
  Chaos,
  ChaosInput,
  ClientList,
  Clock,
  ClockInput,
  Fault,
  FaultRuleInput,
  Limits,
  LimitsInput,
  RequestCount,
  RequestLimit,
  StatePage,
  CacheItemDetail,
  CacheItemList,
  RequestList,
  RequestMatcher,
  ResetResult,
  Scenario,
  ScenarioApplied,
  ScenarioTopic,
  ScenarioTopicSeeded,
  ScheduledTopicReset,
  Snapshot,
  SnapshotLoaded,
  State,
  TokenWithdrawal,
  TopicMessages,
  TopicReset,
  TopicResetInput,
  WithdrawalInput,
} from '../../openapi/generated/control-types.js';
import { defaultEndpoint, issueToken, signingKeyBytes, type IssuedToken, type TokenRequest } from '../auth/tokens.js';
import { parsePermissions } from '../auth/permissions.js';
import type { EmulatorContext } from '../context.js';
import type { StoreHealth } from '../topics/store.js';
import type { ReplicaLink } from '../backend/replica-link.js';
import { lastClockReadingMs, resourceNameLength } from '../documents.js';
import { EmulatorError } from '../errors.js';
import { RequestJournal, DEFAULT_LIST_LIMIT } from '../journal/journal.js';
import type { EmulatorEvents } from '../events.js';
import { limitsProfileOf } from '../limits/account-limits.js';
import { EmulatorMetrics } from '../metrics/metrics.js';
import { applyScenario } from '../scenario/apply.js';
import { readScenarioFile } from '../scenario/load.js';
import { seedTopics } from '../scenario/seed.js';
import { controlOf } from '../snapshot/document.js';
import { applyRestore, planRestore } from '../snapshot/restore.js';
import { takeControl, takeSnapshot } from '../snapshot/take.js';
import { answerQuestion, gatherWaiting, type Question } from './gather.js';
import { countRequests, judgedClients, listRequests } from './journal-reads.js';
import { applySharedChange } from './replication.js';
import { sharedOperationId, type SharedChange } from './shared-changes.js';
import { DEFAULT_PAGE, stateOf, topicMessagesOf, waitingSubscribersOf, withEveryReplica } from './state-view.js';
import { TokenWithdrawals } from './token-withdrawals.js';
import { cacheItemOf, cacheItemsOf } from './cache-items.js';

// The control plane's operations, once. The HTTP handlers (openapi/control.yaml), the methods
// of the object startEmulator() returns (api.ts) and scenario files all call these. Inputs
// arrive checked against the document's schemas, once, by whichever way they came: the
// route's validator, api.ts, or the scenario's own check.

const CONTROL_PLANE = 'control plane';

/** The most caches the emulator holds: creating one more is refused. */
export const MAX_CACHES = 1000;

export class EmulatorControls {
  /** The endpoint written into the tokens it signs (host:port once listening). */
  endpoint: string;
  /** The gRPC TLS door's host:port, once listening (--grpc-tls-port): the SDK claims of the JWTs it signs. */
  sdkEndpoint: string | undefined;
  /** Every door the settings ask for serves (start.ts sets it): health answers 503 `starting` until then. */
  started = false;
  /** The local certificate authority's certificate (PEM) behind --https-port, for GET /_emulator/tls/ca.pem. */
  tlsAuthority: string | undefined;
  /** The counters and gauges GET /_emulator/metrics shows. */
  readonly metrics: EmulatorMetrics;
  /** The request journal (journal/journal.ts): every answered request, the newest `journalSize`. */
  readonly journal: RequestJournal;
  private readonly withdrawals: TokenWithdrawals;
  private startupScenario: Scenario | undefined;
  /** Changes are not passed to other replicas: they apply one passed on, or their own start-up. */
  private quiet = false;

  constructor(private readonly context: EmulatorContext) {
    const { settings, auth, clock, log } = context;
    this.endpoint = settings.endpoint ?? defaultEndpoint(settings.host, settings.port);
    this.sdkEndpoint = undefined;
    this.withdrawals = new TokenWithdrawals(auth, clock, log, context.waiting);
    this.metrics = new EmulatorMetrics(context);
    this.journal = new RequestJournal(context.events, settings.journalSize);
    const replicas = context.shared?.replicas;
    if (replicas) {
      const here = { journal: this.journal, waitingSubscribers: () => waitingSubscribersOf(context) };
      replicas.onQuestion = (question) => answerQuestion(here, replicas, question as Question);
    }
  }

  /** Back to the state just after start-up; see the reset operation in openapi/control.yaml. */
  reset(): ResetResult {
    const { store, clock, log } = this.context;
    let answeredSubscribers = 0;
    const removedFaults = this.resetControls(() => {
      answeredSubscribers = this.context.waiting.answerAll().length;
      store.clear();
      this.context.items.clearAll();
    });
    this.share({ op: 'reset' });
    this.changed('reset');
    log.info(
      { answeredSubscribers, removedFaults },
      `reset: back to a clean start (${answeredSubscribers} waiting subscriber(s) answered, ${removedFaults} fault rule(s) removed)`,
    );
    return { answeredSubscribers, removedFaults, clock: clock.state() };
  }

  /**
   * `result` once what the change asked of the cache's items is made (on a shared store the
   * items change in Redis after the call returns): a route answers when every replica reads it.
   */
  async settledAfter<T>(result: T): Promise<T> {
    await Promise.all([this.context.items.settled(), this.context.store.settled()]);
    return result;
  }

  /** Whether the store can serve now (health). */
  storeHealth(): StoreHealth {
    return this.context.store.health();
  }

  /**
   * The state, a page of its long lists (StatePage, defaults applied); on a shared store, the
   * waiting subscribers of this replica only (see `gatheredState`).
   */
  state(page: Required<StatePage> = DEFAULT_PAGE): State {
    return stateOf(this.context, this.withdrawals, page);
  }

  /**
   * The state, with the waiting subscribers of every replica on a shared store (GET /_emulator/state):
   * the list, and each topic's count. In memory, `state`.
   */
  async gatheredState(page: Required<StatePage> = DEFAULT_PAGE): Promise<State> {
    const replicas = this.context.shared?.replicas;
    if (!replicas) return this.state(page);
    const [waitingSubscribers, limits] = await Promise.all([
      gatherWaiting(replicas),
      this.context.limits.gatheredView(),
    ]);
    return withEveryReplica(this.state(page), waitingSubscribers, limits, page);
  }

  /** A topic's retained messages, oldest first, as previews; a topic not used yet is not created. */
  topicMessages(cache: string, topic: string): TopicMessages {
    return topicMessagesOf(this.context, cache, topic);
  }

  /**
   * Signs a token in the portable format; it expires ttlSeconds after the clock's reading. `for:
   * 'sdk'` (the SDK's generateDisposableToken): the portable endpoint is the gRPC TLS door's, which
   * the SDK reaches as cache.<endpoint>, when that door is on.
   */
  async issueToken(request: TokenRequest, audience: 'http' | 'sdk' = 'http'): Promise<IssuedToken> {
    // What the schema cannot say: a topic role's scope is topics, a cache role's is keys.
    const checked = parsePermissions(request.permissions);
    if ('problem' in checked)
      throw new EmulatorError('invalid_body', `The request body is invalid: body.${checked.problem}.`);
    const issued = await issueToken(
      request,
      signingKeyBytes(this.context.settings.signingKey),
      this.context.clock.now(),
      audience === 'sdk' && this.sdkEndpoint !== undefined
        ? `localhost:${this.sdkEndpoint.slice(this.sdkEndpoint.lastIndexOf(':') + 1)}`
        : this.endpoint,
      this.sdkEndpoint,
    );
    this.changed('issueToken');
    return { ...issued, ...(request.tokenId !== undefined ? { tokenId: request.tokenId } : {}) };
  }

  /** Every token with this id answers 401 expired_token, now or after `afterMs` of clock time. */
  expireToken(tokenId: string, input: WithdrawalInput = {}, why = CONTROL_PLANE): TokenWithdrawal {
    return this.withdraw(tokenId, 'expired', input, why);
  }

  /** Every token with this id answers 401 invalid_token, now or after `afterMs` of clock time. */
  revokeToken(tokenId: string, input: WithdrawalInput = {}, why = CONTROL_PLANE): TokenWithdrawal {
    return this.withdraw(tokenId, 'revoked', input, why);
  }

  /** The caches there are, in the order they were made. */
  cacheNames(): string[] {
    return this.context.store.cacheNames();
  }

  /** Creates a cache (false: it exists; at most MAX_CACHES). A shared store's caches are set at start. */
  createCache(cache: string): boolean {
    const { store } = this.context;
    const { min, max } = resourceNameLength;
    if (cache.length < min || cache.length > max)
      throw new EmulatorError(
        'invalid_parameter',
        `Invalid request: a cache name must be ${min} to ${max} characters.`,
      );
    if (!store.hasCache(cache) && store.cacheNames().length >= MAX_CACHES)
      throw new EmulatorError('limit_exceeded', `The emulator holds at most ${MAX_CACHES} caches.`);
    return this.changed('createCache', store.createCache(cache));
  }

  /**
   * Deletes a cache and its topics (false: there is none): its waiting subscribers are answered
   * and its streams end first, its scheduled page changes are cancelled.
   */
  deleteCache(cache: string): boolean {
    const { store, waiting, pageChanges } = this.context;
    if (!store.hasCache(cache)) return false;
    waiting.answerCache(cache);
    pageChanges.forgetCache(cache);
    this.context.items.clear(cache);
    return this.changed('deleteCache', store.deleteCache(cache));
  }

  /** Removes every item of a cache, its topics left as they are (false: there is none). */
  /** A page of a cache's live items, as the dashboard's Cache view shows them; undefined: no such cache. */
  cacheItems(cache: string, page: Required<StatePage>): CacheItemList | undefined {
    if (!this.context.store.hasCache(cache)) return undefined;
    return cacheItemsOf(this.context, cache, page);
  }

  /** One live item, a collection's members a page at a time; undefined: no such cache, or no such item. */
  cacheItem(cache: string, key: Buffer, page: Required<StatePage>): CacheItemDetail | undefined {
    if (!this.context.store.hasCache(cache)) return undefined;
    return cacheItemOf(this.context, cache, key, page);
  }

  flushCache(cache: string): boolean {
    if (!this.context.store.hasCache(cache)) return false;
    this.context.items.clear(cache);
    return this.changed('flushCache', true);
  }

  /** The topic changes page now, after the message numbered K, or after some clock time. */
  resetTopic(
    cache: string,
    topic: string,
    when: TopicResetInput = {},
    why = CONTROL_PLANE,
  ): TopicReset | ScheduledTopicReset {
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

  clock(): Clock {
    return this.context.clock.state();
  }

  /** Applies mode, then setTo, then advanceMs (see setClock in openapi/control.yaml). */
  setClock(change: ClockInput): Clock {
    const { clock, log } = this.context;
    const setTo =
      change.setTo === undefined
        ? undefined
        : typeof change.setTo === 'number'
          ? change.setTo
          : Date.parse(change.setTo);
    if (change.mode !== 'real' && (setTo ?? clock.now()) + (change.advanceMs ?? 0) > lastClockReadingMs) {
      throw new EmulatorError(
        'invalid_body',
        `The request body is invalid: the clock cannot pass ${new Date(lastClockReadingMs).toISOString()}, near the last date there is.`,
      );
    }
    if (change.mode === 'virtual') clock.freeze();
    if (setTo !== undefined) clock.set(setTo);
    if (change.advanceMs !== undefined) clock.advance(change.advanceMs);
    if (change.mode === 'real') clock.useRealTime();
    this.share({ op: 'clock', clock: clock.save() });
    const state = clock.state();
    log.info({ change, clock: state }, `clock: ${state.mode} at ${state.now}`);
    this.changed('setClock');
    return state;
  }

  addFault(rule: FaultRuleInput): Fault {
    const at = this.context.clock.now();
    const added = this.context.faults.add(rule, undefined, at);
    this.share({ op: 'addFault', id: added.id, rule, at });
    return this.changed('addFault', added);
  }

  faults(): Fault[] {
    return this.context.faults.list();
  }

  /** The rules that ended by themselves (count used up, duration over), newest first, until cleared. */
  endedFaults(): Fault[] {
    return this.context.faults.ended();
  }

  fault(id: string): Fault {
    return this.context.faults.get(id);
  }

  removeFault(id: string): Fault {
    const removed = this.context.faults.remove(id);
    this.share({ op: 'removeFault', id });
    return this.changed('removeFault', removed);
  }

  clearFaults(): { removed: number } {
    const removed = this.context.faults.clear();
    this.share({ op: 'clearFaults' });
    return this.changed('clearFaults', { removed });
  }

  /** The limits; on a shared store, their usage as this replica knows it (see `gatheredLimits`). */
  limits(): Limits {
    return this.context.limits.view();
  }

  /** The limits with every replica's usage on a shared store (GET /_emulator/limits). */
  gatheredLimits(): Promise<Limits> {
    return this.context.limits.gatheredView();
  }

  setLimits(change: LimitsInput): Limits {
    const limits = this.context.limits.set(change);
    this.share({ op: 'setLimits', change });
    return this.changed('setLimits', limits);
  }

  chaos(): Chaos {
    return this.context.faults.chaosView();
  }

  startChaos(input: ChaosInput): Chaos {
    const chaos = this.context.faults.startChaos(input);
    this.share({ op: 'startChaos', input });
    return this.changed('startChaos', chaos);
  }

  stopChaos(): Chaos {
    const chaos = this.context.faults.stopChaos();
    this.share({ op: 'stopChaos' });
    return this.changed('stopChaos', chaos);
  }

  applyScenario(scenario: Scenario): ScenarioApplied {
    return this.changed('applyScenario', applyScenario(this, scenario));
  }

  /** Publishes a scenario's messages, in order (checked first: caches, sizes). */
  seedTopics(topics: readonly ScenarioTopic[]): ScenarioTopicSeeded[] {
    return seedTopics(this.context.store, this.context.settings.payloadLimitBytes, topics);
  }

  async loadScenarioFile(path: string): Promise<ScenarioApplied> {
    return this.applyScenario(await readScenarioFile(path));
  }

  /** The whole state as one document (GET /_emulator/snapshot). */
  snapshot(): Snapshot {
    return takeSnapshot(this.context, this.withdrawals);
  }

  /**
   * Replaces the whole state with a snapshot, whose consistency is checked before anything changes
   * (PUT /_emulator/snapshot); on a shared store every replica loads its control part too.
   */
  restore(snapshot: Snapshot): SnapshotLoaded {
    const plan = planRestore(snapshot, {
      caches: new Set(this.context.store.cacheNames()),
      payloadLimitBytes: this.context.settings.payloadLimitBytes,
    });
    const loaded = applyRestore(this.context, this.withdrawals, plan);
    this.share({ op: 'restoreControl', control: controlOf(snapshot) });
    return this.changed('loadSnapshot', loaded);
  }

  // The journal's reads cover every replica on a shared store (journal-reads.ts).

  /** Journalled requests, newest first: those the matcher accepts, at most `limit` (default 100). */
  requests(matcher: RequestMatcher = {}, limit: RequestLimit = DEFAULT_LIST_LIMIT): Promise<RequestList> {
    return listRequests(this.journal, this.replicas, matcher, limit);
  }

  /** How many journalled requests the matcher accepts (e.g. "exactly one publish to t"). */
  countRequests(matcher: RequestMatcher = {}): Promise<RequestCount> {
    return countRequests(this.journal, this.replicas, matcher);
  }

  /** Every client in the journal, judged by the client rules (judge/catalogue.ts). */
  clients(): Promise<ClientList> {
    return judgedClients(this.journal, this.replicas);
  }

  /**
   * The configuration's own faults (chaos seed, scenario): applied at start and after every
   * reset. On a shared store, then the changes other replicas made since the last reset.
   */
  async startUp(): Promise<void> {
    const { scenario } = this.context.settings;
    if (scenario !== undefined) this.startupScenario = await readScenarioFile(scenario);
    this.applyStartup();
    await this.context.shared?.control.follow({
      apply: (change) => this.applyShared(change),
      current: () => takeControl(this.context, this.withdrawals),
    });
  }

  /** The emulator's event stream (GET /_emulator/events listens to it). */
  get events(): EmulatorEvents {
    return this.context.events;
  }

  /** On a shared store, the replicas (GET /_emulator/events hears the others' events through them). */
  get replicas(): ReplicaLink | undefined {
    return this.context.shared?.replicas;
  }

  /** Stops every timer and delay (the emulator is closing). */
  dispose(): void {
    this.context.faults.reset();
    this.context.pageChanges.reset();
    this.withdrawals.reset();
    this.journal.dispose();
  }

  // Every replica applies its own configuration's start-up: it is not passed on.
  private applyStartup(): void {
    const { chaosSeed, chaosRate } = this.context.settings;
    const quiet = this.quiet;
    this.quiet = true;
    try {
      if (chaosSeed !== undefined) this.startChaos({ seed: chaosSeed, rate: chaosRate });
      if (this.startupScenario) applyScenario(this, this.startupScenario);
    } finally {
      this.quiet = quiet;
    }
  }

  /**
   * Everything a reset puts back, calling `clearTopics` where the topics go (another replica's
   * reset clears them through the store); returns how many fault rules it removed.
   */
  private resetControls(clearTopics: () => void = () => {}): number {
    const { faults, pageChanges, auth, clock, limits } = this.context;
    const removedFaults = faults.reset();
    pageChanges.reset();
    this.withdrawals.reset();
    clearTopics();
    this.journal.clear();
    auth.reset();
    clock.useRealTime();
    // The shared counters are reset by the replica that resets, not again by each that follows it.
    limits.reset(limitsProfileOf(this.context.settings), !this.quiet);
    this.applyStartup();
    return removedFaults;
  }

  /** Passes a change to the other replicas on a shared store (nothing in memory). */
  private share(change: SharedChange): void {
    if (!this.quiet) this.context.shared?.control.share(change);
  }

  /** Applies a change another replica made (and applied) there: the same operation, not passed on again. */
  private applyShared(change: SharedChange): void {
    this.quiet = true;
    try {
      applySharedChange(
        { context: this.context, withdrawals: this.withdrawals, resetControls: () => void this.resetControls() },
        change,
      );
      this.changed(sharedOperationId(change));
    } catch (error) {
      this.context.log.warn(
        { change: change.op, err: (error as Error).message },
        'a change from another replica was not applied',
      );
    } finally {
      this.quiet = false;
    }
  }

  private withdraw(
    tokenId: string,
    how: TokenWithdrawal['how'],
    { afterMs }: WithdrawalInput,
    why: string,
  ): TokenWithdrawal {
    const at = this.context.clock.now();
    const withdrawal = this.withdrawals.withdraw(tokenId, how, afterMs, why);
    this.share({ op: 'withdraw', tokenId, how, ...(afterMs !== undefined ? { afterMs } : {}), at });
    return this.changed(how === 'expired' ? 'expireToken' : 'revokeToken', withdrawal);
  }

  /** Tells the event stream that the operation changed something; returns its result. */
  private changed<T>(operationId: string, result?: T): T {
    const { events, clock } = this.context;
    if (events.listens('control')) events.emit({ kind: 'control', at: clock.now(), operationId });
    return result as T;
  }
}
