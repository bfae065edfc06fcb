#!/usr/bin/env node
// topics-conformance: flags, environment and config file -> a run -> reports -> exit code
// (0 every rule that ran passed, 1 a rule failed, 2 usage or connection error).
// `topics-conformance history ...`: the stream-history checker (history/cli.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { parse as parseYaml } from 'yaml';
import { renderDifferential, runDifferential } from './differential.js';
import { UsageError, type ConformanceOptions } from './options.js';
import { renderJson } from './reporters/json.js';
import { renderJunit } from './reporters/junit.js';
import { renderTable } from './reporters/table.js';
import { catalogue } from './rules/index.js';
import { historyMain } from './history/cli.js';
import { ConnectionError, runConformance } from './run.js';
import { spawnEmulator, type SpawnedEmulator } from './spawn.js';

const ENV = 'TOPICS_CONFORMANCE_';

function integer(flag: string) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`${flag} must be a whole number.`);
    return Number(value);
  };
}

function list(value: string, previous: string[] | undefined): string[] {
  return [
    ...(previous ?? []),
    ...value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  ];
}

/** Flags named as the options they set. */
const SAME_NAMED = [
  'baseUrl',
  'token',
  'cache',
  'restrictedToken',
  'expiredToken',
  'missingCache',
  'seed',
  'runs',
  'maxRequests',
  'rate',
  'concurrency',
  'rules',
  'replay',
  'payloadLimit',
  'control',
  'adminKey',
  'allowGlobalReset',
] as const satisfies ReadonlyArray<keyof ConformanceOptions>;

type Flags = Partial<Pick<ConformanceOptions, (typeof SAME_NAMED)[number]>> & {
  /** Seconds and milliseconds on the command line; the options take milliseconds. */
  timeBudget?: number;
  shrinkTime?: number;
  pollTimeout?: number;
  minLongPoll?: number;
  listRules?: boolean;
  report?: string[];
  config?: string;
  compareBaseUrl?: string;
  compareToken?: string;
  compareCache?: string;
};

function program(): Command {
  const option = (flags: string, description: string, env: string) =>
    new Option(flags, description).env(`${ENV}${env}`);
  return new Command('topics-conformance')
    .description('Checks a Topics HTTP API endpoint (live, gateway or emulator) against the contract, rule by rule.')
    .addOption(
      option('--base-url <url>', 'the endpoint to check (default: start a fresh emulator of this package)', 'BASE_URL'),
    )
    .addOption(option('--token <token>', 'token or API key with publish and subscribe access to --cache', 'TOKEN'))
    .addOption(option('--cache <name>', 'an existing cache; the suite creates its own topics in it', 'CACHE'))
    .addOption(
      option(
        '--restricted-token <token>',
        'a token for --cache lacking publish access (403 rules)',
        'RESTRICTED_TOKEN',
      ),
    )
    .addOption(option('--expired-token <token>', 'an expired token (401 rules)', 'EXPIRED_TOKEN'))
    .addOption(
      option('--missing-cache <name>', 'a cache name that does not exist (default: a random one)', 'MISSING_CACHE'),
    )
    .addOption(
      option('--seed <n>', 'seed of the generated scenarios (default: random, printed)', 'SEED').argParser(
        integer('--seed'),
      ),
    )
    .addOption(
      option('--runs <n>', 'generated scenarios per stream property (default 25)', 'RUNS').argParser(integer('--runs')),
    )
    .addOption(
      option('--max-requests <n>', 'most requests the run may send (default 20000)', 'MAX_REQUESTS').argParser(
        integer('--max-requests'),
      ),
    )
    .addOption(
      option('--time-budget <seconds>', 'start no rule after this long (default 55)', 'TIME_BUDGET').argParser(
        integer('--time-budget'),
      ),
    )
    .addOption(
      option(
        '--shrink-time <seconds>',
        'how long a failing stream property may shrink its scenario (default 10)',
        'SHRINK_TIME',
      ).argParser(integer('--shrink-time')),
    )
    .addOption(
      option(
        '--rate <per-second>',
        'most requests started per second, 0 = no cap (the live default limit is 10)',
        'RATE',
      ).argParser(integer('--rate')),
    )
    .addOption(
      option('--concurrency <n>', 'most requests in flight, long-polls included (default 16)', 'CONCURRENCY').argParser(
        integer('--concurrency'),
      ),
    )
    .addOption(
      option(
        '--rules <ids>',
        'rules to run: ids, globs (auth.*) or a level (documented, observed, control, observation); repeatable',
        'RULES',
      ).argParser(list),
    )
    .addOption(new Option('--list-rules', 'list every rule with its level and contract sentence, and exit'))
    .addOption(
      option('--report <kind=path>', 'also write junit=PATH or json=PATH (repeatable)', 'REPORT').argParser(list),
    )
    .addOption(
      option(
        '--replay <token>',
        'run exactly one failing scenario again (NAME@SEED:PATH, printed with the failure)',
        'REPLAY',
      ),
    )
    .addOption(option('--config <file>', 'JSON or YAML file with these settings (flags and environment win)', 'CONFIG'))
    .addOption(
      option(
        '--payload-limit <bytes>',
        'largest message the endpoint accepts (default 4096)',
        'PAYLOAD_LIMIT',
      ).argParser(integer('--payload-limit')),
    )
    .addOption(
      option(
        '--poll-timeout <ms>',
        'client-side abort of one long-poll before polling again (default 10000)',
        'POLL_TIMEOUT',
      ).argParser(integer('--poll-timeout')),
    )
    .addOption(
      option(
        '--min-long-poll <ms>',
        'a subscribe with nothing to deliver may not answer empty sooner (default 250)',
        'MIN_LONG_POLL',
      ).argParser(integer('--min-long-poll')),
    )
    .addOption(
      option(
        '--control <mode>',
        "the emulator's control plane: auto (detect at /_emulator/health), on, off",
        'CONTROL',
      ).choices(['auto', 'on', 'off']),
    )
    .addOption(
      option(
        '--admin-key <key>',
        'X-Emulator-Admin-Key for the control plane, when the emulator asks for one',
        'ADMIN_KEY',
      ),
    )
    .addOption(
      option(
        '--allow-global-reset',
        'let control rules call POST /_emulator/reset (clears that whole emulator)',
        'ALLOW_GLOBAL_RESET',
      ),
    )
    .addOption(
      option(
        '--compare-base-url <url>',
        'differential mode: also run against this endpoint and report differences',
        'COMPARE_BASE_URL',
      ),
    )
    .addOption(option('--compare-token <token>', 'token for --compare-base-url (default: --token)', 'COMPARE_TOKEN'))
    .addOption(option('--compare-cache <name>', 'cache for --compare-base-url (default: --cache)', 'COMPARE_CACHE'))
    .addHelpText(
      'after',
      '\nAlso: topics-conformance history [options]: concurrent publishers and subscribers, their history checked for lost,\nduplicated, reordered and unannounced-gap messages (topics-conformance history --help).',
    )
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
}

function readConfig(path: string): Partial<Flags> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --config ${path}: ${(error as Error).message}`);
  }
  const value: unknown = parseYaml(text); // YAML is a superset of JSON
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`--config ${path} must hold an object of settings`);
  return value;
}

/** Flags and environment win over the config file; the config file over defaults. */
function merge(command: Command): Flags {
  const flags = command.opts<Flags>();
  if (!flags.config) return flags;
  const fromFile = readConfig(flags.config);
  const merged: Record<string, unknown> = { ...fromFile };
  for (const [key, value] of Object.entries(flags)) {
    const source = command.getOptionValueSource(key);
    if (value !== undefined && (source === 'cli' || source === 'env')) merged[key] = value;
  }
  return merged;
}

function listRules(): string {
  const lines = catalogue.map(
    (rule) => `${rule.id.padEnd(42)} ${rule.level.padEnd(11)} ${rule.title}\n${' '.repeat(55)}${rule.source}`,
  );
  return `${lines.join('\n')}\n${catalogue.length} rules\n`;
}

function toOptions(flags: Flags, spawned: SpawnedEmulator | undefined): ConformanceOptions {
  const options: ConformanceOptions = {
    ...Object.fromEntries(SAME_NAMED.filter((key) => flags[key] !== undefined).map((key) => [key, flags[key]])),
    baseUrl: flags.baseUrl ?? spawned?.baseUrl ?? '',
    token: flags.token ?? spawned?.token ?? '',
    cache: flags.cache ?? spawned?.cache ?? '',
  };
  if (flags.pollTimeout !== undefined) options.pollTimeoutMs = flags.pollTimeout;
  if (flags.minLongPoll !== undefined) options.minLongPollMs = flags.minLongPoll;
  if (flags.timeBudget !== undefined) options.timeBudgetMs = flags.timeBudget * 1000;
  if (flags.shrinkTime !== undefined) options.shrinkTimeMs = flags.shrinkTime * 1000;
  // A freshly started emulator is the suite's own: its full reset harms no one.
  if (spawned) options.allowGlobalReset = true;
  if (process.stderr.isTTY) options.onProgress = (line) => process.stderr.write(`  ${line}\n`);
  return options;
}

function writeReports(specs: string[], render: { junit: () => string; json: () => string }): void {
  for (const spec of specs) {
    const match = /^(junit|json)=(.+)$/.exec(spec);
    if (!match) throw new UsageError(`--report expects junit=PATH or json=PATH, got ${JSON.stringify(spec)}`);
    writeFileSync(match[2]!, render[match[1] as 'junit' | 'json']());
  }
}

async function main(argv: string[]): Promise<number> {
  const command = program();
  try {
    command.parse(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  let spawned: SpawnedEmulator | undefined;
  try {
    const flags = merge(command);
    if (flags.listRules) {
      process.stdout.write(listRules());
      return 0;
    }
    for (const spec of flags.report ?? [])
      if (!/^(junit|json)=.+$/.test(spec))
        throw new UsageError(`--report expects junit=PATH or json=PATH, got ${JSON.stringify(spec)}`);
    if (!flags.baseUrl) {
      process.stderr.write('No --base-url: starting a fresh topics-emulator to check.\n');
      spawned = await spawnEmulator();
    }
    const options = toOptions(flags, spawned);
    if (flags.compareBaseUrl) {
      const other: ConformanceOptions = {
        ...options,
        baseUrl: flags.compareBaseUrl,
        token: flags.compareToken ?? options.token,
        cache: flags.compareCache ?? options.cache,
      };
      const diff = await runDifferential(options, other);
      process.stdout.write(renderDifferential(diff));
      writeReports(flags.report ?? [], {
        junit: () => renderJunit(diff.a),
        json: () => `${JSON.stringify(diff, null, 2)}\n`,
      });
      return diff.exitCode;
    }
    const report = await runConformance(options);
    process.stdout.write(renderTable(report));
    writeReports(flags.report ?? [], { junit: () => renderJunit(report), json: () => renderJson(report) });
    return report.exitCode;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConnectionError) {
      process.stderr.write(`topics-conformance: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(
      `topics-conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 2;
  } finally {
    await spawned?.stop();
  }
}

const entry = process.argv[2] === 'history' ? historyMain(process.argv.slice(3)) : main(process.argv);
void entry.then((code) => {
  // Idle keep-alive sockets of fetch would hold the process open for a while: exit once
  // everything written has been flushed.
  process.stdout.write('', () => process.exit(code));
});
