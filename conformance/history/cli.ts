// topics-conformance history: runs the concurrent workload against an endpoint (or checks a
// history written before), then reports the anomalies. Exit 0 clean, 1 anomalies counted
// against the endpoint, 2 usage or connection error.
import { randomUUID } from 'node:crypto';
import { createWriteStream, writeFileSync, type WriteStream } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../options.js';
import { spawnEmulator, type SpawnedEmulator } from '../spawn.js';
import { checkHistory } from './checks/index.js';
import type { HistoryEvent, PublishEvent, RunEvent } from './events.js';
import { readHistory } from './file.js';
import { indexHistory } from './model.js';
import { historyReport, renderJson, renderJunit, renderText } from './report.js';
import { runWorkload } from './workload.js';

const ENV = 'TOPICS_CONFORMANCE_';

interface Flags {
  baseUrl?: string[];
  publishOn?: number[];
  token?: string;
  cache?: string;
  topic?: string;
  publishers: number;
  subscribers: number;
  duration: number;
  rate: number;
  maxRequests: number;
  pollTimeout: number;
  drain: number;
  pageChanges: number;
  adminKey?: string;
  strict?: boolean;
  history?: string;
  check?: string;
  report?: string[];
}

function bounded(flag: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`${flag} must be a whole number.`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${flag} must be from ${min} to ${max}.`);
    return n;
  };
}

const repeated = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

function command(): Command {
  const option = (flags: string, description: string, env: string) =>
    new Option(flags, description).env(`${ENV}${env}`);
  return new Command('topics-conformance history')
    .description(
      'Runs concurrent publishers and subscribers against an endpoint, records the history, and finds lost, duplicated, reordered and unannounced-gap messages.',
    )
    .addOption(
      new Option(
        '--base-url <url>',
        'an endpoint; repeat for replicas of one emulator (default: start a fresh emulator)',
      ).argParser(repeated),
    )
    .addOption(
      new Option('--publish-on <n>', 'publish only on these --base-url (1-based, repeatable; default: all)').argParser(
        (value, previous: number[] | undefined) => [...(previous ?? []), bounded('--publish-on', 1, 64)(value)],
      ),
    )
    .addOption(option('--token <token>', 'token or API key with publish and subscribe access to --cache', 'TOKEN'))
    .addOption(option('--cache <name>', 'an existing cache', 'CACHE'))
    .addOption(new Option('--topic <name>', 'the topic to use (default: a fresh history-<id>)'))
    .addOption(
      new Option('--publishers <n>', 'concurrent publishers').default(4).argParser(bounded('--publishers', 1, 64)),
    )
    .addOption(
      new Option('--subscribers <n>', 'concurrent subscribers').default(8).argParser(bounded('--subscribers', 1, 256)),
    )
    .addOption(
      new Option('--duration <seconds>', 'how long to publish').default(30).argParser(bounded('--duration', 1, 3600)),
    )
    .addOption(
      option('--rate <per-second>', 'most requests started per second, 0 = no cap', 'RATE')
        .default(0)
        .argParser(bounded('--rate', 0, 100_000)),
    )
    .addOption(
      option('--max-requests <n>', 'most requests the run may send', 'MAX_REQUESTS')
        .default(200_000)
        .argParser(bounded('--max-requests', 1, 10_000_000)),
    )
    .addOption(
      new Option('--poll-timeout <ms>', 'client-side abort of one long-poll')
        .default(10_000)
        .argParser(bounded('--poll-timeout', 100, 600_000)),
    )
    .addOption(
      new Option('--drain <seconds>', 'after publishing, how long subscribers may read on')
        .default(5)
        .argParser(bounded('--drain', 0, 600)),
    )
    .addOption(
      new Option(
        '--page-changes <n>',
        "page changes through an emulator's control plane during the run (never a live endpoint)",
      )
        .default(0)
        .argParser(bounded('--page-changes', 0, 1000)),
    )
    .addOption(option('--admin-key <key>', 'X-Emulator-Admin-Key, for --page-changes', 'ADMIN_KEY'))
    .addOption(
      new Option('--strict', "check the emulator's stronger promise: best-effort kinds (lost, stale) fail too"),
    )
    .addOption(new Option('--history <file>', 'also write the history there (JSON Lines)'))
    .addOption(new Option('--check <file>', 'check a history written before instead of running the workload'))
    .addOption(
      new Option('--report <kind=path>', 'also write junit=PATH or json=PATH (repeatable)').argParser(repeated),
    )
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
}

/** An emulator answers GET /_emulator/health with JSON; page changes are only ever sent to one. */
async function isEmulator(baseUrl: string, adminKey: string | undefined): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/_emulator/health`, {
      headers: adminKey ? { 'x-emulator-admin-key': adminKey } : {},
      signal: AbortSignal.timeout(5000),
    });
    const body = (await response.json()) as { status?: unknown };
    return typeof body.status === 'string';
  } catch {
    return false;
  }
}

/** A base URL as written into the history: without any user:password part. */
const withoutCredentials = (url: string) => url.replace(/\/\/[^@/]*@/, '//');

async function record(flags: Flags, spawned: SpawnedEmulator | undefined): Promise<HistoryEvent[]> {
  const baseUrls = flags.baseUrl ?? [spawned!.baseUrl];
  for (const url of baseUrls)
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
      throw new UsageError(`--base-url ${JSON.stringify(url)} is not an http:// or https:// URL`);
  const token = flags.token ?? spawned?.token;
  const cache = flags.cache ?? spawned?.cache;
  if (!token) throw new UsageError('--token is required with --base-url');
  if (!cache) throw new UsageError('--cache is required with --base-url');
  const publishOn = (flags.publishOn ?? baseUrls.map((_, i) => i + 1)).map((n) => {
    if (n > baseUrls.length) throw new UsageError(`--publish-on ${n}: there are ${baseUrls.length} --base-url`);
    return n - 1;
  });
  if (flags.pageChanges > 0 && !(await isEmulator(baseUrls[0]!, flags.adminKey)))
    throw new UsageError(
      "--page-changes needs an emulator's control plane at the first --base-url (GET /_emulator/health)",
    );
  const topic = flags.topic ?? `history-${randomUUID().slice(0, 8)}`;
  const events: HistoryEvent[] = [];
  let file: WriteStream | undefined;
  if (flags.history) file = createWriteStream(flags.history);
  const emit = (event: HistoryEvent) => {
    events.push(event);
    file?.write(`${JSON.stringify(event)}\n`);
  };
  const run: RunEvent = {
    type: 'run',
    version: 1,
    baseUrls: baseUrls.map(withoutCredentials),
    cache,
    topic,
    publishers: flags.publishers,
    subscribers: flags.subscribers,
    startedAt: Date.now(),
    strict: flags.strict === true,
  };
  emit(run);
  const summary = await runWorkload({
    baseUrls,
    token,
    cache,
    topic,
    publishers: flags.publishers,
    subscribers: flags.subscribers,
    durationMs: flags.duration * 1000,
    publishOn,
    ratePerSecond: flags.rate,
    maxRequests: flags.maxRequests,
    pollTimeoutMs: flags.pollTimeout,
    drainMs: flags.drain * 1000,
    pageChanges: flags.pageChanges,
    adminKey: flags.adminKey,
    onEvent: emit,
  });
  if (file)
    await new Promise<void>((resolve, reject) =>
      file.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  process.stderr.write(
    `${summary.publishes} publishes (${summary.acknowledged} acknowledged), ${summary.reads} reads${summary.budgetExhausted ? '; --max-requests reached before --duration' : ''}\n`,
  );
  if (summary.acknowledged === 0) {
    const first = events.find((e): e is PublishEvent => e.type === 'publish');
    const got = first === undefined ? 'none was sent' : `the first got ${first.status ?? first.error ?? 'no answer'}`;
    throw new UsageError(`no publish was acknowledged (${got}): check --base-url, --token and --cache`);
  }
  return events;
}

export async function historyMain(argv: string[]): Promise<number> {
  const program = command();
  try {
    program.parse(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  const flags = program.opts<Flags>();
  let spawned: SpawnedEmulator | undefined;
  try {
    for (const spec of flags.report ?? [])
      if (!/^(junit|json)=.+$/.test(spec))
        throw new UsageError(`--report expects junit=PATH or json=PATH, got ${JSON.stringify(spec)}`);
    let events: HistoryEvent[];
    if (flags.check) events = await readHistory(flags.check);
    else {
      if (!flags.baseUrl) {
        process.stderr.write('No --base-url: starting a fresh topics-emulator to check.\n');
        spawned = await spawnEmulator();
      }
      events = await record(flags, spawned);
    }
    const index = indexHistory(events);
    const strict = flags.strict === true || (flags.check !== undefined && index.run?.strict === true);
    const report = historyReport(index.run, strict, events.length, checkHistory(index, strict));
    process.stdout.write(renderText(report));
    for (const spec of flags.report ?? []) {
      const [, kind, path] = /^(junit|json)=(.+)$/.exec(spec)!;
      writeFileSync(path!, kind === 'junit' ? renderJunit(report) : renderJson(report));
    }
    return report.exitCode;
  } catch (error) {
    process.stderr.write(
      `topics-conformance history: ${error instanceof UsageError ? error.message : ((error as Error).stack ?? String(error))}\n`,
    );
    return 2;
  } finally {
    await spawned?.stop();
  }
}
