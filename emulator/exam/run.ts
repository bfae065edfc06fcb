import { EmulatorError } from '../errors.js';
import { DEFAULT_START_TIMEOUT_MS } from './plan.js';
import { startEmulator, type EmulatorSettings, type RunningEmulator } from '../index.js';
import { RequestJournal } from '../journal/journal.js';
import type { JournalEntry } from '../journal/query.js';
import { judgeClients } from '../../judge/judge.js';
import { endOf } from '../../judge/rule.js';
import { startClientProcess, type ClientProcess, type Exit } from './client-process.js';
import { checkEndToEnd, type EndToEndResult, type PublishedMessage } from './end-to-end.js';
import {
  countsOf,
  met,
  ruleResults,
  stepResults,
  succeeded,
  verdictOf,
  type ExamCounts,
  type ExamRuleResult,
  type ExamVerdict,
  type StepResult,
} from './judging.js';
import { describeFormat, messageOf, printedNumbers, type MessageFormat } from './messages.js';
import { BURST_SIZE, type ExamPlan, type ExamStep } from './plan.js';
import { RecoveryWatch } from './recovery.js';
import { startTokenVending, type TokenVending } from './token-vending.js';

// `topics-emulator exam`: an emulator on a free port, the client command run against it with
// TOPICS_* in its environment; from the client's first request, numbered messages published
// while the gauntlet plays; then the journal judged by the client rules and the client's
// output checked end to end. The exam ends by the plan's duration after the first request
// (plus STOP_GRACE_MS to stop the command), whatever the client does.

export const EXAM_CACHE = 'exam-cache';
export const EXAM_TOPIC = 'exam-topic';
/** The exam's journal holds at least this many requests: a spinning client makes thousands. */
const EXAM_JOURNAL_SIZE = 100_000;
/** How long the exam waits for the command's first request, by default: long enough for a slow build. */
export { DEFAULT_START_TIMEOUT_MS };
const MAX_REPORTED_REQUESTS = 5000;

export interface ExamOptions {
  command: string;
  args: readonly string[];
  plan: ExamPlan;
  settings?: Partial<EmulatorSettings>;
  strict?: boolean;
  /** What each message is (default: json). */
  messages?: MessageFormat;
  /** How long to wait for the command's first request (default DEFAULT_START_TIMEOUT_MS). */
  startTimeoutMs?: number;
  /** More environment for the command (besides this process's and the TOPICS_* variables). */
  env?: NodeJS.ProcessEnv;
  /** Each line the command prints on stdout (the exam keeps them for the end-to-end check). */
  onOutput?: (line: string) => void;
  /** The command's stderr; default: passed through to this process's stderr. */
  onError?: (chunk: string) => void;
  /** Aborting stops the command and ends the exam early (could not judge). */
  signal?: AbortSignal;
}

export interface ExamReport {
  command: string;
  plan: { name: string; durationMs: number };
  messages: string;
  strict: boolean;
  startedAt: string;
  durationMs: number;
  /** 0 passed, 1 failed, 2 could not judge (or could not start, or a usage error). */
  exitCode: 0 | 1 | 2;
  verdict: ExamVerdict['verdict'] | 'could not start';
  /** Why it failed or could not judge. */
  reasons: string[];
  commandExit: { code: number | null; signal: string | null; stoppedByExam: boolean };
  error?: string;
  rules: ExamRuleResult[];
  steps: StepResult[];
  endToEnd: EndToEndResult;
  counts: ExamCounts;
  clients: string[];
  /** Lines the command printed on stdout. */
  linesPrinted: number;
  /** The client's journalled requests (the last MAX_REPORTED_REQUESTS), oldest first: what the verdicts rest on. */
  requests: JournalEntry[];
}

/**
 * Resolves as the client's first service request arrives (a subscribe as it starts to wait; any
 * other request as it is answered, which it is at once), or with 'timeout'.
 */
function firstRequestOf(emulator: RunningEmulator, ms: number) {
  let done: (how: 'request' | 'timeout') => void = () => {};
  const promise = new Promise<'request' | 'timeout'>((resolve) => {
    const timer = setTimeout(() => done('timeout'), ms);
    const off = emulator.context.events.on(
      (event) => {
        if (event.kind === 'request' && event.record.plane === 'service') done('request');
        if (event.kind === 'waiting' && event.waiting > 0) done('request');
      },
      ['request', 'waiting'],
    );
    done = (how) => {
      clearTimeout(timer);
      off();
      resolve(how);
    };
  });
  return { promise, cancel: () => done('timeout') };
}

/**
 * Plays one step through the control methods the emulator offers everyone. An SDK's subscription
 * stream stays open where a long-poll would ask again, so what a new subscribe meets, an open
 * stream meets too: a throttle or an outage ends it with the same status ("while waiting" rules
 * for gRPC), and an expired token ends its streams with 401 expired_token.
 */
function play(emulator: RunningEmulator, step: ExamStep, vending: TokenVending): void {
  const target = { cache: EXAM_CACHE, topic: EXAM_TOPIC };
  const streams = { protocol: 'grpc', operation: 'subscribe', ...target, whileWaiting: true } as const;
  switch (step.kind) {
    case 'page-change':
      emulator.resetTopic(EXAM_CACHE, EXAM_TOPIC, {}, 'exam: page change');
      return;
    case 'throttle': {
      const retryAfterSeconds = step.retryAfterSeconds ?? 1;
      emulator.addFault({ operation: 'subscribe', ...target, status: 429, retryAfterSeconds, count: step.count ?? 3 });
      emulator.addFault({ ...streams, status: 429, retryAfterSeconds, count: 1 });
      return;
    }
    case 'drop-waiting':
      emulator.addFault({ operation: 'subscribe', ...target, drop: true, whileWaiting: true, count: 1 });
      return;
    case 'outage':
      emulator.addFault({ operation: 'subscribe', ...target, status: 503, durationMs: step.durationMs ?? 2000 });
      emulator.addFault({ ...streams, status: 503, durationMs: step.durationMs ?? 2000 });
      return;
    case 'token-expiry': {
      const expired = new Set(['exam-client-1', ...vending.tokenIds]);
      for (const tokenId of expired) emulator.expireToken(tokenId, {}, 'exam: token expiry');
      const error = new EmulatorError('expired_token');
      for (const waiting of [...emulator.context.waiting])
        if (waiting.facts.protocol === 'grpc' && expired.has(waiting.facts.tokenId ?? ''))
          waiting.interrupt({ decidedBy: { kind: 'fault', ruleId: 'exam:token-expiry' }, error });
      return;
    }
  }
}

/** Ends the SDK's open streams (the client is about to be stopped) so that the journal holds what they delivered. */
function endStreams(emulator: RunningEmulator): void {
  for (const waiting of [...emulator.context.waiting]) if (waiting.facts.protocol === 'grpc') waiting.close();
}

/**
 * Steps whose situation lasts only while it is played (an outage): a client that did not meet it
 * (backing off through it, or busy) gets it once more, at the next step's time. The others wait
 * for the client (a fault with a count, a page, an expired token) and need no second time.
 */
const PLAYED_AGAIN: ReadonlySet<ExamStep['kind']> = new Set(['outage']);

/** An answer with nothing in it (the long-poll timeout's): the caller checks the quiet stretch. */
const emptyAnswer = (record: { operation: string | null; status: number | null; items: readonly number[] }) =>
  record.operation === 'subscribe' && record.status === 200 && record.items.length === 0;

export async function runExam(options: ExamOptions): Promise<ExamReport> {
  const { plan } = options;
  const format = options.messages ?? { kind: 'json' };
  const given = options.settings ?? {};
  const emulator = await startEmulator({
    logLevel: 'silent',
    longPollTimeoutMs: plan.longPollTimeoutMs,
    ...given,
    host: '127.0.0.1',
    port: 0,
    grpcPort: given.grpcPort ?? 0,
    caches: [...new Set([...(given.caches ?? []), EXAM_CACHE])],
  });
  // The exam's own journal, fed by the same records as the emulator's (so the same ids), larger.
  const journal = new RequestJournal(emulator.context.events, EXAM_JOURNAL_SIZE);
  const permissions = [{ role: 'publishsubscribe' as const, cache: EXAM_CACHE, topic: '*' }];
  const issue = (tokenId: string) => emulator.issueToken({ permissions, ttlSeconds: 3600, tokenId });
  const clock = emulator.context.clock;
  let vending: TokenVending | undefined;
  let client: ClientProcess | undefined;
  const timers: NodeJS.Timeout[] = [];
  const stopListening: (() => void)[] = [];
  const published: PublishedMessage[] = [];
  const pageChangesAt: number[] = [];
  const playedAt = new Map<ExamStep, number>();
  const lines: string[] = [];
  let startedAt = clock.now();
  let planStarted = false;
  const started = performance.now();
  let publishing: Promise<unknown> = Promise.resolve();
  let exit: Exit = { code: null, signal: null };
  let stoppedByExam = false;
  let noRequest: string | undefined;
  try {
    vending = await startTokenVending(issue);
    const clientToken = (await issue('exam-client-1')).token;
    if (plan.scenario) emulator.applyScenario(plan.scenario);
    client = startClientProcess({
      command: options.command,
      args: options.args,
      env: {
        ...process.env,
        // Output as it is printed, not when a buffer fills (Python buffers a pipe otherwise).
        PYTHONUNBUFFERED: '1',
        ...options.env,
        TOPICS_BASE_URL: emulator.url,
        TOPICS_TOKEN: clientToken,
        TOPICS_API_KEY: emulator.apiKey,
        TOPICS_CACHE: EXAM_CACHE,
        TOPICS_TOPIC: EXAM_TOPIC,
        TOPICS_TOKEN_URL: vending.url,
        ...(emulator.grpcEndpoint !== undefined ? { TOPICS_GRPC_ENDPOINT: emulator.grpcEndpoint } : {}),
      },
      onLine: (line) => {
        lines.push(line);
        options.onOutput?.(line);
      },
      onError: options.onError ?? ((chunk) => process.stderr.write(chunk)),
    });
    const abort = new Promise<'aborted'>((resolve) => {
      if (options.signal?.aborted) resolve('aborted');
      options.signal?.addEventListener('abort', () => resolve('aborted'), { once: true });
    });

    // Numbered messages, published here (no request of the exam's own in the journal).
    let n = 0;
    const publishOne = () => {
      const number = ++n;
      const at = clock.now();
      const done = Promise.resolve()
        .then(() => emulator.context.store.publish(EXAM_CACHE, EXAM_TOPIC, { text: messageOf(format, number) }))
        .then(
          () => published.push({ n: number, at }),
          () => undefined, // a store out of reach: the message was not published
        );
      publishing = Promise.all([publishing, done]);
    };
    // A burst: several messages in one turn, so the first wakes the waiting poll and the others
    // are published before any client can poll again.
    const publishTick = (tick: number) => {
      const count = plan.burstEvery > 0 && tick % plan.burstEvery === 0 ? BURST_SIZE : 1;
      for (let i = 0; i < count; i++) publishOne();
    };

    // The plan's clock starts with the client's first request, so that a slow start misses
    // nothing of the gauntlet.
    const firstRequest = firstRequestOf(emulator, options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
    const early = await Promise.race([client.exited, firstRequest.promise, abort]);
    firstRequest.cancel();
    if (early === 'timeout' || early === 'aborted') {
      noRequest =
        early === 'aborted'
          ? 'the exam was interrupted before the command made a request'
          : `the command made no request to the emulator within ${Math.round((options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS) / 1000)} s (--start-timeout)`;
      stoppedByExam = true;
      exit = await client.stop();
    } else if (early !== 'request') {
      exit = early;
    } else {
      planStarted = true;
      startedAt = clock.now();
      // What the client met, as it happens: a step that lasts only while played is played again if not.
      const lastMet = new Map<ExamStep['kind'], number>();
      const recovery = new RecoveryWatch();
      let probed = -1;
      const quietAt = (at: number) => plan.quiet.findIndex((q) => at >= q.fromMs && at < q.toMs);
      stopListening.push(
        emulator.context.events.on(
          (event) => {
            if (event.kind !== 'request' || event.record.plane !== 'service') return;
            const record = event.record;
            for (const step of plan.steps)
              if (met[step.kind](record)) {
                lastMet.set(step.kind, event.at);
                if (step.kind !== 'token-expiry') recovery.failed(event.at);
              }
            if (succeeded(record)) recovery.succeeded(event.at);
            // Right after the client's first empty answer in a quiet stretch, one message: it is
            // published before the client can poll again, so only a poll that kept its cursor gets it.
            const quiet = quietAt(event.at - startedAt);
            if (quiet >= 0 && quiet !== probed && emptyAnswer(record)) {
              probed = quiet;
              queueMicrotask(publishOne);
            }
          },
          ['request'],
        ),
      );
      plan.steps.forEach((step, i) => {
        timers.push(
          setTimeout(() => {
            const now = clock.now();
            if (step.kind === 'page-change') pageChangesAt.push(now);
            playedAt.set(step, now);
            play(emulator, step, vending!);
          }, step.atMs),
        );
        if (!PLAYED_AGAIN.has(step.kind)) return;
        const again = plan.steps[i + 1]?.atMs ?? plan.publishUntilMs;
        if (again > step.atMs)
          timers.push(
            setTimeout(() => {
              const first = playedAt.get(step);
              if (first !== undefined && (lastMet.get(step.kind) ?? -Infinity) < first) play(emulator, step, vending!);
            }, again),
          );
      });
      let tick = 0;
      for (let at = plan.publishEveryMs; at <= plan.publishUntilMs; at += plan.publishEveryMs)
        if (quietAt(at) < 0) {
          const t = ++tick;
          timers.push(setTimeout(() => publishTick(t), at));
        }
      let deadline: NodeJS.Timeout | undefined;
      let over = await Promise.race([
        client.exited,
        abort,
        new Promise<'deadline'>((resolve) => (deadline = setTimeout(() => resolve('deadline'), plan.durationMs))),
      ]);
      clearTimeout(deadline);
      // A client still recovering from the last step it met gets PATIENCE_MS from that answer
      // to carry on (the exam's own verdict must not depend on how patient a correct client is).
      const late =
        over === 'deadline' ? await recovery.awaitRecovery<Exit | 'aborted'>(clock, [client.exited, abort]) : over;
      if (late !== 'recovered' && late !== 'no wait') over = late;
      if (over === 'deadline' || over === 'aborted') {
        stoppedByExam = true;
        endStreams(emulator);
        exit = await client.stop();
      } else exit = over;
    }
  } finally {
    for (const timer of timers) clearTimeout(timer);
    for (const off of stopListening) off();
    await client?.stop();
    await publishing;
    await vending?.close();
    await emulator.close();
  }
  const durationMs = Math.round(performance.now() - started);
  const entries = journal.entries().filter((e) => e.plane === 'service');
  journal.dispose();
  const base = {
    command: [options.command, ...options.args].join(' '),
    plan: { name: plan.name, durationMs: plan.durationMs },
    messages: describeFormat(format),
    strict: options.strict ?? false,
    startedAt: new Date(startedAt).toISOString(),
    durationMs,
    commandExit: { code: exit.code, signal: exit.signal, stoppedByExam },
    linesPrinted: lines.length,
  };
  if (exit.error) return couldNotStart(base, `the command could not start: ${exit.error.message}`, 2);
  if (!planStarted) {
    if (noRequest) return couldNotStart(base, `could not judge: ${noRequest}`, 2, 'could not judge');
    const how = exit.code !== null ? `exited with code ${exit.code}` : `was killed by ${exit.signal}`;
    return exit.code === 0
      ? couldNotStart(
          base,
          `could not judge: the command ${how} before making any request to the emulator`,
          2,
          'could not judge',
        )
      : couldNotStart(
          base,
          `the command could not start: it ${how} before making any request to the emulator (its output is above)`,
          2,
        );
  }
  const clients = judgeClients(entries);
  const rules = ruleResults(clients);
  const steps = stepResults(
    plan.steps,
    (step) => playedAt.get(step) ?? startedAt + step.atMs,
    entries,
    entries.some((e) => e.client?.startsWith('key:')),
  );
  const expiry = steps.find((s) => s.kind === 'token-expiry');
  const endToEnd = checkEndToEnd({
    published,
    printed: printedNumbers(lines),
    pageChangesAt,
    tokenLostAt: expiry?.outcome === 'not recovered' ? startedAt + expiry.atMs : null,
    lastRequestEndedAt: entries.reduce((last, e) => Math.max(last, endOf(e)), -Infinity),
  });
  const verdict = verdictOf({ rules, steps, endToEnd, clients: clients.length, strict: options.strict ?? false });
  return {
    ...base,
    exitCode: verdict.exitCode,
    verdict: verdict.verdict,
    reasons: verdict.reasons,
    rules,
    steps,
    endToEnd,
    counts: countsOf(clients, entries),
    clients: clients.map((c) => c.client),
    requests: entries.slice(-MAX_REPORTED_REQUESTS),
  };
}

type ReportBase = Pick<
  ExamReport,
  'command' | 'plan' | 'messages' | 'strict' | 'startedAt' | 'durationMs' | 'commandExit' | 'linesPrinted'
>;

function couldNotStart(
  base: ReportBase,
  error: string,
  exitCode: 2,
  verdict: ExamReport['verdict'] = 'could not start',
): ExamReport {
  return {
    ...base,
    exitCode,
    verdict,
    reasons: [error],
    error,
    rules: ruleResults([]),
    steps: [],
    endToEnd: checkEndToEnd({ published: [], printed: [], pageChangesAt: [], tokenLostAt: null }),
    counts: countsOf([], []),
    clients: [],
    requests: [],
  };
}
