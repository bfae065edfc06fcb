import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { startEmulator, type EmulatorSettings, type RunningEmulator } from '../index.js';
import { RequestJournal } from '../journal/journal.js';
import type { JournalEntry } from '../journal/query.js';
import { judgeClients } from '../judge/judge.js';
import {
  checkEndToEnd,
  messageText,
  printedNumbers,
  type EndToEndResult,
  type PublishedMessage,
} from './end-to-end.js';
import {
  countsOf,
  ruleResults,
  stepResults,
  type ExamCounts,
  type ExamRuleResult,
  type StepResult,
} from './judging.js';
import type { ExamPlan, ExamStep } from './plan.js';
import { startTokenVending, type TokenVending } from './token-vending.js';

// `topics-emulator exam`: an emulator on a free port, the client command run against it with
// TOPICS_* in its environment, numbered messages published while the gauntlet plays, then the
// journal judged by the client rules and the client's output checked end to end.

export const EXAM_CACHE = 'exam-cache';
export const EXAM_TOPIC = 'exam-topic';
const PUBLISHER = 'exam-publisher';
/** How long a command gets to leave after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 2000;
/** The exam's journal holds at least this many requests: a spinning client makes thousands. */
const EXAM_JOURNAL_SIZE = 100_000;

export interface ExamOptions {
  command: string;
  args: readonly string[];
  plan: ExamPlan;
  settings?: Partial<EmulatorSettings>;
  strict?: boolean;
  /** More environment for the command (besides this process's and the TOPICS_* variables). */
  env?: NodeJS.ProcessEnv;
  /** Each line the command prints on stdout (the exam keeps them for the end-to-end check). */
  onOutput?: (line: string) => void;
  /** The command's stderr; default: passed through to this process's stderr. */
  onError?: (chunk: string) => void;
}

export interface ExamReport {
  command: string;
  plan: { name: string; durationMs: number };
  strict: boolean;
  startedAt: string;
  durationMs: number;
  /** 0 passed, 1 a contract rule (or with --strict any rule) violated or the end-to-end check failed, 2 could not start. */
  exitCode: 0 | 1 | 2;
  commandExit: { code: number | null; signal: string | null; stoppedByExam: boolean };
  error?: string;
  rules: ExamRuleResult[];
  steps: StepResult[];
  endToEnd: EndToEndResult;
  counts: ExamCounts;
  clients: string[];
  /** The client's journalled requests (the last MAX_REPORTED_REQUESTS), oldest first: what the verdicts rest on. */
  requests: JournalEntry[];
}

const MAX_REPORTED_REQUESTS = 5000;

interface Exit {
  code: number | null;
  signal: string | null;
  error?: Error;
}

function runCommand(options: ExamOptions, env: NodeJS.ProcessEnv, lines: string[]) {
  const child: ChildProcess = spawn(options.command, [...options.args], {
    env: { ...process.env, ...options.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<Exit>((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    options.onOutput?.(line);
  });
  child
    .stderr!.setEncoding('utf8')
    .on('data', (chunk: string) => (options.onError ?? process.stderr.write.bind(process.stderr))(chunk));
  return { child, exited };
}

/** How long the exam waits for the command's first request before it starts the plan regardless. */
const START_WAIT_MS = 15_000;

/** The command ended before its first request: nothing more to play. */
class ExamOver extends Error {}

/** Resolves (undefined) at the first service request with a credential other than the exam's, or after `ms`. */
function firstRequestOf(emulator: RunningEmulator, ms: number) {
  let done = () => {};
  const promise = new Promise<undefined>((resolve) => {
    const timer = setTimeout(() => done(), ms);
    const off = emulator.context.events.on(
      (event) => {
        const record = event.kind === 'request' ? event.record : undefined;
        if (record?.plane === 'service' && record.client !== `token:${PUBLISHER}`) done();
      },
      ['request'],
    );
    done = () => {
      clearTimeout(timer);
      off();
      resolve(undefined);
    };
  });
  return { promise, cancel: () => done() };
}

/** Plays one step through the control methods the emulator offers everyone. */
function play(emulator: RunningEmulator, step: ExamStep, vending: TokenVending): void {
  const target = { cache: EXAM_CACHE, topic: EXAM_TOPIC };
  switch (step.kind) {
    case 'page-change':
      emulator.resetTopic(EXAM_CACHE, EXAM_TOPIC, {}, 'exam: page change');
      return;
    case 'throttle':
      emulator.addFault({
        operation: 'subscribe',
        ...target,
        status: 429,
        retryAfterSeconds: step.retryAfterSeconds ?? 1,
        count: step.count ?? 3,
      });
      return;
    case 'drop-waiting':
      emulator.addFault({ operation: 'subscribe', ...target, drop: true, whileWaiting: true, count: 1 });
      return;
    case 'outage':
      emulator.addFault({ operation: 'subscribe', ...target, status: 503, durationMs: step.durationMs ?? 2000 });
      return;
    case 'token-expiry':
      for (const tokenId of ['exam-client-1', ...vending.tokenIds])
        emulator.expireToken(tokenId, {}, 'exam: token expiry');
      return;
  }
}

export async function runExam(options: ExamOptions): Promise<ExamReport> {
  const { plan } = options;
  const given = options.settings ?? {};
  const emulator = await startEmulator({
    logLevel: 'silent',
    longPollTimeoutMs: plan.longPollTimeoutMs,
    ...given,
    host: '127.0.0.1',
    port: 0,
    caches: [...new Set([...(given.caches ?? []), EXAM_CACHE])],
  });
  // The exam's own journal, fed by the same records as the emulator's (so the same ids), larger.
  const journal = new RequestJournal(emulator.context.events, EXAM_JOURNAL_SIZE);
  const permissions = [{ role: 'publishsubscribe' as const, cache: EXAM_CACHE, topic: '*' }];
  const issue = (tokenId: string) => emulator.issueToken({ permissions, ttlSeconds: 3600, tokenId });
  const vending = await startTokenVending(issue);
  const publisher = (await issue(PUBLISHER)).token;
  const clientToken = (await issue('exam-client-1')).token;
  const timers: NodeJS.Timeout[] = [];
  const published: PublishedMessage[] = [];
  const pageChangesAt: number[] = [];
  const playedAt = new Map<ExamStep, number>();
  const lines: string[] = [];
  let startedAt = emulator.context.clock.now();
  const started = performance.now();
  let publishing: Promise<void> = Promise.resolve();
  let exit: Exit = { code: null, signal: null };
  let stoppedByExam = false;
  try {
    if (plan.scenario) emulator.applyScenario(plan.scenario);
    const { child, exited } = runCommand(
      options,
      {
        TOPICS_BASE_URL: emulator.url,
        TOPICS_TOKEN: clientToken,
        TOPICS_API_KEY: emulator.apiKey,
        TOPICS_CACHE: EXAM_CACHE,
        TOPICS_TOPIC: EXAM_TOPIC,
        TOPICS_TOKEN_URL: vending.url,
      },
      lines,
    );
    // Numbered messages, one at a time, each publish awaited before the next is due.
    let n = 0;
    const publishNext = async () => {
      const number = ++n;
      const sentAt = emulator.context.clock.now();
      const response = await fetch(`${emulator.url}/topics/${EXAM_CACHE}/${EXAM_TOPIC}`, {
        method: 'POST',
        headers: { authorization: publisher, 'content-type': 'text/plain;charset=utf-8' },
        body: messageText(number),
      }).catch(() => undefined);
      await response?.arrayBuffer();
      if (response?.status === 204) published.push({ n: number, at: sentAt });
    };
    const publishSoon = () => {
      publishing = publishing.then(publishNext);
    };
    // The plan's clock starts with the client's first request, so that a slow start misses
    // nothing of the gauntlet; meanwhile messages are published (a first poll waits for one).
    const beforeStart = setInterval(publishSoon, plan.publishEveryMs);
    const firstRequest = firstRequestOf(emulator, START_WAIT_MS);
    const early = await Promise.race([exited, firstRequest.promise]);
    firstRequest.cancel();
    clearInterval(beforeStart);
    if (early) {
      exit = early;
      throw new ExamOver();
    }
    startedAt = emulator.context.clock.now();
    for (const step of plan.steps) {
      timers.push(
        setTimeout(() => {
          const now = emulator.context.clock.now();
          if (step.kind === 'page-change') pageChangesAt.push(now);
          playedAt.set(step, now);
          play(emulator, step, vending);
        }, step.atMs),
      );
    }
    const quiet = (at: number) => plan.quiet.some((q) => at >= q.fromMs && at < q.toMs);
    for (let at = plan.publishEveryMs; at <= plan.publishUntilMs; at += plan.publishEveryMs)
      if (!quiet(at)) timers.push(setTimeout(publishSoon, at));
    let deadline: NodeJS.Timeout | undefined;
    exit = await Promise.race([
      exited,
      new Promise<Exit>((resolve) => {
        deadline = setTimeout(() => {
          stoppedByExam = true;
          child.kill('SIGTERM');
          const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
          void exited.then((e) => {
            clearTimeout(kill);
            resolve(e);
          });
        }, plan.durationMs);
      }),
    ]);
    clearTimeout(deadline);
  } catch (error) {
    if (!(error instanceof ExamOver)) throw error;
  } finally {
    for (const timer of timers) clearTimeout(timer);
    await publishing;
    await vending.close();
    await emulator.close();
  }
  const durationMs = Math.round(performance.now() - started);
  journal.dispose();
  if (exit.error) return couldNotStart(options, startedAt, durationMs, exit.error);
  const entries = journal.entries().filter((e) => e.plane === 'service' && e.client !== `token:${PUBLISHER}`);
  const failedEarly = failedBeforeAnyRequest(exit, stoppedByExam, entries.length);
  if (failedEarly) return couldNotStart(options, startedAt, durationMs, failedEarly);
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
  });
  const failing = rules.some((r) => r.status === 'violated' && (r.level === 'contract' || options.strict));
  return {
    command: [options.command, ...options.args].join(' '),
    plan: { name: plan.name, durationMs: plan.durationMs },
    strict: options.strict ?? false,
    startedAt: new Date(startedAt).toISOString(),
    durationMs,
    exitCode: failing || !endToEnd.passed ? 1 : 0,
    commandExit: { code: exit.code, signal: exit.signal, stoppedByExam },
    rules,
    steps,
    endToEnd,
    counts: countsOf(clients, entries),
    clients: clients.map((c) => c.client),
    requests: entries.slice(-MAX_REPORTED_REQUESTS),
  };
}

/**
 * A command that ended by itself with a failure before its first request never ran as a client (a
 * missing file, a syntax error, a missing dependency): judging it would pass it on rules it never
 * met, so the exam says it could not start.
 */
function failedBeforeAnyRequest(exit: Exit, stoppedByExam: boolean, requests: number): Error | undefined {
  if (stoppedByExam || requests > 0 || (exit.code === 0 && exit.signal === null)) return undefined;
  const how = exit.code !== null ? `exited with code ${exit.code}` : `was killed by ${exit.signal}`;
  return new Error(`it ${how} before making any request to the emulator (its output is above)`);
}

function couldNotStart(options: ExamOptions, startedAt: number, durationMs: number, error: Error): ExamReport {
  return {
    command: [options.command, ...options.args].join(' '),
    plan: { name: options.plan.name, durationMs: options.plan.durationMs },
    strict: options.strict ?? false,
    startedAt: new Date(startedAt).toISOString(),
    durationMs,
    exitCode: 2,
    commandExit: { code: null, signal: null, stoppedByExam: false },
    error: `the command could not start: ${error.message}`,
    rules: ruleResults([]),
    steps: [],
    endToEnd: checkEndToEnd({ published: [], printed: [], pageChangesAt: [], tokenLostAt: null }),
    counts: countsOf([], []),
    clients: [],
    requests: [],
  };
}
