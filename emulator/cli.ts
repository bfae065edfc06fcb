#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { parsePermissions, roles, type Permission } from './auth/permissions.js';
import { defaultEndpoint, issueToken, signingKeyBytes } from './auth/tokens.js';
import { parseDuration } from './durations.js';
import { startEmulator, type RunningEmulator } from './index.js';
import { limitsProfileOf } from './limits/account-limits.js';
import { DEV_API_KEY, resolveSettings, SettingsError, type EmulatorSettings } from './settings.js';
import { version } from './version.js';
import { parseYaml } from './yaml.js';

const ENV = 'TOPICS_EMULATOR_';

function wholeNumber(flag: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`${flag} must be a whole number.`);
    return Number(value);
  };
}

function probability(flag: string) {
  return (value: string): number => {
    const n = Number(value.trim());
    if (!/^\d*\.?\d+$/.test(value.trim()) || n > 1)
      throw new InvalidArgumentError(`${flag} must be a number from 0 to 1.`);
    return n;
  };
}

function duration(plainUnitMs: number) {
  return (value: string): number => {
    try {
      return parseDuration(value, plainUnitMs);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

/** Repeatable flags collect; their environment variable is a comma-separated list. */
function list(value: string, previous: string[] | undefined): string[] {
  return [
    ...(previous ?? []),
    ...value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  ];
}

async function readConfigFile(path: string): Promise<Partial<EmulatorSettings>> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SettingsError(`Cannot read config file ${path}: ${(error as Error).message}`);
  }
  try {
    const value: unknown = parseYaml(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new Error('it must hold an object of settings');
    return value as Partial<EmulatorSettings>;
  } catch (error) {
    throw new SettingsError(`Cannot parse config file ${path}: ${(error as Error).message}`);
  }
}

const serverOptions = [
  new Option('--host <host>', 'interface to listen on (0.0.0.0 for every interface)').env(`${ENV}HOST`),
  new Option('--port <port>', 'port to listen on; 0 picks a free one (default 4545)')
    .env(`${ENV}PORT`)
    .argParser(wholeNumber('--port')),
  new Option('--cache <name>', 'a cache that exists (repeatable; default default-cache)')
    .env(`${ENV}CACHES`)
    .argParser(list),
  new Option('--api-key <key>', 'an API key with full access (repeatable; default the dev key)')
    .env(`${ENV}API_KEYS`)
    .argParser(list),
  new Option('--signing-key <secret>', 'HS256 secret for the tokens the emulator signs').env(`${ENV}SIGNING_KEY`),
  new Option('--payload-limit <bytes>', 'largest message, in bytes (default 4096)')
    .env(`${ENV}PAYLOAD_LIMIT`)
    .argParser(wholeNumber('--payload-limit')),
  new Option('--retention <count>', 'messages kept per topic for resume (default 100)')
    .env(`${ENV}RETENTION`)
    .argParser(wholeNumber('--retention')),
  new Option('--max-batch <count>', 'most items in one subscribe response (default 100)')
    .env(`${ENV}MAX_BATCH`)
    .argParser(wholeNumber('--max-batch')),
  new Option(
    '--long-poll-timeout <duration>',
    'how long a subscribe waits with nothing to answer; 0 = forever (default 60s; plain numbers are ms)',
  )
    .env(`${ENV}LONG_POLL_TIMEOUT`)
    .argParser(duration(1)),
  new Option(
    '--first-subscribe <where>',
    'where a first subscribe begins: it waits for the next message (default next)',
  )
    .env(`${ENV}FIRST_SUBSCRIBE`)
    .choices(['latest', 'next', 'oldest']),
  new Option(
    '--discontinuity <shape>',
    'a discontinuity comes with the item it announces, or alone at once (default with-item)',
  )
    .env(`${ENV}DISCONTINUITY`)
    .choices(['with-item', 'alone']),
  new Option(
    '--content-types <policy>',
    'unlisted content types: published as binary with a warning, or 400 (default lenient)',
  )
    .env(`${ENV}CONTENT_TYPES`)
    .choices(['lenient', 'strict']),
  new Option('--max-waiting <count>', 'most subscribers waiting at once; one more gets 429 (default 20000)')
    .env(`${ENV}MAX_WAITING`)
    .argParser(wholeNumber('--max-waiting')),
  new Option(
    '--request-timeout <duration>',
    'how long a client may take to send a whole request; then 408; 0 = no limit (default 60s; plain numbers are ms)',
  )
    .env(`${ENV}REQUEST_TIMEOUT`)
    .argParser(duration(1)),
  new Option(
    '--cors-origin <origin>',
    "a web page's origin allowed on the service routes besides local ones, or '*' (repeatable)",
  )
    .env(`${ENV}CORS_ORIGINS`)
    .argParser(list),
  new Option(
    '--control-cors-origin <origin>',
    "a web page's origin allowed on the control plane besides its own pages (repeatable)",
  )
    .env(`${ENV}CONTROL_CORS_ORIGINS`)
    .argParser(list),
  new Option(
    '--allowed-host <host>',
    "a Host served besides localhost and IP addresses: name, .name (and subdomains) or '*' (repeatable)",
  )
    .env(`${ENV}ALLOWED_HOSTS`)
    .argParser(list),
  new Option('--endpoint <host>', 'the endpoint written into portable tokens (default localhost:port)').env(
    `${ENV}ENDPOINT`,
  ),
  new Option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (default info)')
    .env(`${ENV}LOG_LEVEL`)
    .choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  new Option('--config <file>', 'a JSON or YAML file of settings (flags and environment override it)').env(
    `${ENV}CONFIG`,
  ),
  new Option('--control <on|off>', 'serve the control plane under /_emulator/ (default on; health is always served)')
    .env(`${ENV}CONTROL`)
    .choices(['on', 'off']),
  new Option(
    '--admin-key <key>',
    'the control plane then requires it in X-Emulator-Admin-Key (mandatory beyond loopback)',
  ).env(`${ENV}ADMIN_KEY`),
  new Option('--scenario <file>', 'a YAML or JSON scenario applied at start and on every reset').env(`${ENV}SCENARIO`),
  new Option(
    '--limits <plan>',
    "account limits on, with a plan's quotas: account (100/s), basic (1000/s), pro (10000/s); default off",
  )
    .env(`${ENV}LIMITS`)
    .choices(['off', 'account', 'basic', 'pro']),
  new Option('--limit-ops-per-second <count>', "account limit: operations per second (default the plan's)")
    .env(`${ENV}LIMIT_OPS_PER_SECOND`)
    .argParser(wholeNumber('--limit-ops-per-second')),
  new Option('--limit-subscriptions <count>', "account limit: concurrent connections (default the plan's)")
    .env(`${ENV}LIMIT_SUBSCRIPTIONS`)
    .argParser(wholeNumber('--limit-subscriptions')),
  new Option('--chaos-seed <seed>', 'seeded chaos: a random, replayable mix of faults')
    .env(`${ENV}CHAOS_SEED`)
    .argParser(wholeNumber('--chaos-seed')),
  new Option('--chaos-rate <probability>', 'with --chaos-seed: share of requests that get a fault (default 0.1)')
    .env(`${ENV}CHAOS_RATE`)
    .argParser(probability('--chaos-rate')),
];

interface ServerFlags {
  host?: string;
  port?: number;
  cache?: string[];
  apiKey?: string[];
  signingKey?: string;
  payloadLimit?: number;
  retention?: number;
  maxBatch?: number;
  longPollTimeout?: number;
  firstSubscribe?: EmulatorSettings['firstSubscribe'];
  discontinuity?: EmulatorSettings['discontinuity'];
  contentTypes?: EmulatorSettings['contentTypes'];
  maxWaiting?: number;
  requestTimeout?: number;
  corsOrigin?: string[];
  controlCorsOrigin?: string[];
  allowedHost?: string[];
  endpoint?: string;
  logLevel?: EmulatorSettings['logLevel'];
  config?: string;
  control?: 'on' | 'off';
  adminKey?: string;
  scenario?: string;
  limits?: EmulatorSettings['limits'];
  limitOpsPerSecond?: number;
  limitSubscriptions?: number;
  chaosSeed?: number;
  chaosRate?: number;
}

async function settingsFrom(flags: ServerFlags): Promise<EmulatorSettings> {
  const file = flags.config ? await readConfigFile(flags.config) : {};
  return resolveSettings(file, {
    host: flags.host,
    port: flags.port,
    caches: flags.cache,
    apiKeys: flags.apiKey,
    signingKey: flags.signingKey,
    payloadLimitBytes: flags.payloadLimit,
    retention: flags.retention,
    maxBatch: flags.maxBatch,
    longPollTimeoutMs: flags.longPollTimeout,
    firstSubscribe: flags.firstSubscribe,
    discontinuity: flags.discontinuity,
    contentTypes: flags.contentTypes,
    maxWaitingSubscribers: flags.maxWaiting,
    requestTimeoutMs: flags.requestTimeout,
    corsOrigins: flags.corsOrigin,
    controlCorsOrigins: flags.controlCorsOrigin,
    allowedHosts: flags.allowedHost,
    endpoint: flags.endpoint,
    logLevel: flags.logLevel,
    controlPlane: flags.control === undefined ? undefined : flags.control === 'on',
    adminKey: flags.adminKey,
    scenario: flags.scenario,
    limits: flags.limits,
    limitOperationsPerSecond: flags.limitOpsPerSecond,
    limitConcurrentSubscriptions: flags.limitSubscriptions,
    chaosSeed: flags.chaosSeed,
    chaosRate: flags.chaosRate,
  });
}

function controlLines(emulator: RunningEmulator): string[] {
  const { url, settings } = emulator;
  if (!settings.controlPlane) return ['  Control:   off (--control off)'];
  const lines = [
    `  Dashboard: ${url}/_emulator/ui${settings.adminKey !== undefined ? ' (asks for the admin key once)' : ''}`,
    `  Control:   ${url}/_emulator/${settings.adminKey !== undefined ? ' (send X-Emulator-Admin-Key)' : ''}`,
  ];
  if (settings.scenario !== undefined) lines.push(`  Scenario:  ${settings.scenario}`);
  if (settings.limits !== 'off') {
    const { operationsPerSecond, concurrentSubscriptions } = limitsProfileOf(settings);
    lines.push(
      `  Limits:    ${settings.limits} plan, ${operationsPerSecond} ops/s, ${concurrentSubscriptions} connections`,
    );
  }
  if (settings.chaosSeed !== undefined)
    lines.push(
      `  Chaos:     seed ${settings.chaosSeed}, rate ${settings.chaosRate} (replay with --chaos-seed ${settings.chaosSeed})`,
    );
  return lines;
}

function banner(emulator: RunningEmulator): string {
  const { url, settings } = emulator;
  const showKey = settings.apiKeys.includes(DEV_API_KEY);
  const key = showKey ? DEV_API_KEY : '$TOPICS_API_KEY';
  const cache = settings.caches[0];
  return [
    `topics-emulator ${version} is ready.`,
    `  Base URL:  ${url}`,
    `  Caches:    ${settings.caches.join(', ')}`,
    `  API key:   ${showKey ? `${DEV_API_KEY} (the dev key; full access)` : `${settings.apiKeys.length} configured (not shown)`}`,
    `  Subscribe: curl -i -H 'Authorization: ${key}' '${url}/topics/${cache}/greetings'`,
    `             (waits for the next message: publish it from another terminal)`,
    `  Publish:   curl -i -X POST -H 'Authorization: ${key}' -H 'Content-Type: text/plain' --data 'hello' ${url}/topics/${cache}/greetings`,
    `  Replay:    curl -i -H 'Authorization: ${key}' '${url}/topics/${cache}/greetings?sequence_number=1&sequence_page=0'`,
    ...controlLines(emulator),
    `  Stop with Ctrl+C.`,
    '',
  ].join('\n');
}

async function serve(flags: ServerFlags): Promise<void> {
  const emulator = await startEmulator(await settingsFrom(flags));
  process.stdout.write(banner(emulator));
  const stop = (signal: string) => {
    emulator.context.log.info({ signal }, 'stopping: answering waiting subscribers');
    // Once every waiting long-poll's answer has left, the process can go: exiting closes the
    // sockets faster than closing thousands of them one by one. A stuck drain still leaves in 1 s.
    setTimeout(() => process.exit(0), 1000).unref();
    emulator.drain().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

interface TokenFlags extends Pick<ServerFlags, 'host' | 'port' | 'signingKey' | 'config' | 'endpoint'> {
  cache: string;
  topic?: string;
  topicPrefix?: string;
  role: Permission['role'];
  ttl: number;
  tokenId?: string;
}

async function printToken(flags: TokenFlags): Promise<void> {
  const { host, port, signingKey, config, endpoint: tokenEndpoint } = flags;
  const settings = await settingsFrom({ host, port, signingKey, config, endpoint: tokenEndpoint });
  const permission = {
    role: flags.role,
    cache: flags.cache,
    ...(flags.topicPrefix !== undefined ? { topicPrefix: flags.topicPrefix } : { topic: flags.topic ?? '*' }),
  };
  const parsed = parsePermissions([permission]);
  if ('problem' in parsed) throw new SettingsError(parsed.problem);
  const endpoint = settings.endpoint ?? defaultEndpoint(settings.host, settings.port);
  const issued = await issueToken(
    {
      permissions: parsed.permissions,
      ttlSeconds: Math.ceil(flags.ttl / 1000),
      ...(flags.tokenId ? { tokenId: flags.tokenId } : {}),
    },
    signingKeyBytes(settings.signingKey),
    Date.now(),
    endpoint,
  );
  process.stdout.write(`${issued.token}\n`);
  process.stderr.write(`expires at ${issued.expiresAt}\n`);
}

const program = new Command('topics-emulator')
  .description('A local emulator of the Topics HTTP API: publish and long-poll subscribe.')
  .version(version)
  .enablePositionalOptions()
  .showHelpAfterError();
for (const option of serverOptions) program.addOption(option);
program.action((flags: ServerFlags) => serve(flags));

const token = program
  .command('token')
  .description('print a token signed for this configuration (same --signing-key / --config as the server)')
  .option('--cache <name>', "cache the token grants, or '*'", '*')
  .option('--topic <name>', "topic the token grants, or '*' (default)")
  .option('--topic-prefix <prefix>', 'grant every topic whose name starts with this')
  .addOption(new Option('--role <role>', 'what the token may do').choices([...roles]).default('publishsubscribe'))
  .addOption(
    new Option('--ttl <duration>', 'lifetime, at most 25h (plain numbers are seconds)')
      .default(3_600_000, '1h')
      .argParser(duration(1000)),
  )
  .option('--token-id <id>', 'an id for the token (at most 64 characters)')
  .action((flags: TokenFlags) => printToken(flags));
for (const option of serverOptions.filter((o) =>
  ['--signing-key', '--config', '--endpoint', '--host', '--port'].includes(o.long!),
)) {
  token.addOption(option);
}

program.parseAsync().catch((error: unknown) => {
  if (error instanceof SettingsError || (error as Error).message?.startsWith('ttlSeconds')) {
    process.stderr.write(`topics-emulator: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    process.stderr.write(`topics-emulator: cannot listen: ${(error as Error).message}\n`);
    process.exit(2);
  }
  process.stderr.write(`topics-emulator: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
