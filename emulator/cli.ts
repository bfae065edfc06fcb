#!/usr/bin/env node
import { readNamedFile } from './files.js';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { parsePermissions, roles, type Permission } from './auth/permissions.js';
import { issueToken, signingKeyBytes, tokenEndpoint } from './auth/tokens.js';
import { tokenTtlSeconds } from './documents.js';
import { parseDuration } from './durations.js';
import { examCommand } from './exam/command.js';
import type { RunningEmulator } from './start.js';
import { widenInliningBudget } from './inlining-budget.js';
import { keepTickShape } from './tick-shape.js';
import { limitsProfileOf } from './limits/account-limits.js';
import { nearest } from './nearest.js';
import { DEV_API_KEY, resolveSettings, SettingsError, type EmulatorSettings } from './settings.js';
import { helpOf } from './settings-help.js';
import {
  configOption,
  ENV_PREFIX,
  settingGroups,
  settingKeys,
  settingsTable,
  type SettingKey,
  type SettingRow,
} from './settings-table.js';
import { defaultTlsDir } from './tls/dir.js';
import { redactedUrl } from './logging.js';
import { version } from './version.js';
import { parseYaml } from './yaml.js';

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
    text = await readNamedFile(path);
  } catch (error) {
    throw new SettingsError(`Cannot read config file ${path}: ${(error as Error).message}`);
  }
  try {
    const value: unknown = parseYaml(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new Error('it must hold an object of settings');
    return value;
  } catch (error) {
    throw new SettingsError(`Cannot parse config file ${path}: ${(error as Error).message}`);
  }
}

/** The flag of one setting, from its row: parser or choices from its schema. */
function optionOf(row: SettingRow): Option {
  const option = new Option(row.flag, helpOf(row)).env(`${ENV_PREFIX}${row.env}`);
  const { schema } = row;
  if (row.words) return option.choices([...row.words]);
  if (Array.isArray(schema['enum'])) return option.choices(schema['enum'] as string[]);
  if (row.duration) return option.argParser(duration(1));
  switch (schema['type']) {
    case 'integer':
      return option.argParser(wholeNumber(option.long!));
    case 'number': // the one number setting is a probability (chaosRate)
      return option.argParser(probability(option.long!));
    case 'array':
      return option.argParser(list);
    default:
      return option;
  }
}

const settingOptions = new Map(settingKeys.map((key) => [key, optionOf(settingsTable[key])]));
const configFileOption = new Option(configOption.flag, configOption.help).env(`${ENV_PREFIX}${configOption.env}`);

type Flags = Record<string, unknown>;

async function settingsFrom(flags: Flags): Promise<EmulatorSettings> {
  const file = typeof flags['config'] === 'string' ? await readConfigFile(flags['config']) : {};
  const fromFlags: Record<string, unknown> = {};
  for (const [key, option] of settingOptions) {
    const value = flags[option.attributeName()];
    if (value === undefined) continue;
    const { words } = settingsTable[key] as SettingRow;
    fromFlags[key] = words ? value === words[0] : value;
  }
  return resolveSettings(file, fromFlags);
}

function controlLines(emulator: RunningEmulator): string[] {
  const { url, settings } = emulator;
  if (!settings.controlPlane) return ['  Control:   off (--control off)'];
  const lines = [
    `  Dashboard: ${url}/_emulator/ui${settings.adminKey !== undefined ? ' (asks for the admin key once)' : ''}`,
    `  Control:   ${url}/_emulator/${settings.adminKey !== undefined ? ' (send X-Emulator-Admin-Key)' : ''}`,
  ];
  if (settings.scenario !== undefined) lines.push(`  Scenario:  ${settings.scenario}`);
  if (settings.stateFile !== undefined) lines.push(`  State:     ${settings.stateFile} (saved on Ctrl+C)`);
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

function grpcLines(emulator: RunningEmulator): string[] {
  if (emulator.grpcEndpoint === undefined) return [];
  const [hostname, port] = emulator.grpcEndpoint.split(':');
  return [
    `  gRPC:      ${emulator.grpcEndpoint} (plaintext, for the provider's SDKs), with @gomomento/sdk:`,
    `             const credentialProvider = CredentialProvider.forMomentoLocal({ hostname: '${hostname}', port: ${port} });`,
    `             const topics = new TopicClient({ configuration: TopicConfigurations.Default.latest(), credentialProvider });`,
    `             await topics.publish('${emulator.settings.caches[0]}', 'greetings', 'hello');`,
    ...(emulator.testAdminPort === undefined
      ? []
      : [`  Test admin: http://${hostname}:${emulator.testAdminPort} (GET /block, GET /unblock: momento-local's)`]),
  ];
}

function sdkEnvironmentLines(emulator: RunningEmulator): string[] {
  const { grpcTlsEndpoint, sdkKey, tlsAuthority, settings } = emulator;
  if (grpcTlsEndpoint === undefined) return [];
  const trust =
    tlsAuthority === undefined
      ? `your certificate's authority (${settings.tlsCert})`
      : join(settings.tlsDir ?? defaultTlsDir(), 'ca.pem');
  const key = settings.apiKeys.includes(DEV_API_KEY) ? sdkKey : undefined;
  return [
    `  gRPC TLS:  ${grpcTlsEndpoint}, for an SDK configured from the environment (CredentialProvider.fromEnvironmentVariable):`,
    key === undefined
      ? `             MOMENTO_API_KEY: your API key's SDK form (not shown with configured keys; docs/sdks.md)`
      : `             export MOMENTO_API_KEY=${key}`,
    `             export NODE_EXTRA_CA_CERTS=${trust}`,
  ];
}

function httpsLines(emulator: RunningEmulator): string[] {
  const { httpsUrl, tlsAuthority, settings } = emulator;
  if (httpsUrl === undefined) return [];
  const port = new URL(httpsUrl).port;
  return [
    `  HTTPS:     ${httpsUrl} and https://api.cache.localhost:${port} (the tokens' endpoint: localhost:${port})`,
    tlsAuthority === undefined
      ? `             with your certificate (${settings.tlsCert})`
      : `             trust the local CA: ${join(settings.tlsDir ?? defaultTlsDir(), 'ca.pem')} (also GET /_emulator/tls/ca.pem), e.g. NODE_EXTRA_CA_CERTS`,
  ];
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
    ...(settings.store === 'memory'
      ? []
      : [`  Store:     ${redactedUrl(settings.store)} (prefix ${settings.storePrefix})`]),
    `  API key:   ${showKey ? `${DEV_API_KEY} (the dev key; full access)` : `${settings.apiKeys.length} configured (not shown)`}`,
    // Double quotes: a configured key is printed as $TOPICS_API_KEY, which the shell must expand.
    `  Subscribe: curl -i -H "Authorization: ${key}" '${url}/topics/${cache}/greetings'`,
    `             (waits for the next message: publish it from another terminal)`,
    `  Publish:   curl -i -X POST -H "Authorization: ${key}" -H 'Content-Type: text/plain' --data 'hello' ${url}/topics/${cache}/greetings`,
    `  Replay:    curl -i -H "Authorization: ${key}" '${url}/topics/${cache}/greetings?sequence_number=1&sequence_page=0'`,
    ...httpsLines(emulator),
    ...grpcLines(emulator),
    ...sdkEnvironmentLines(emulator),
    ...controlLines(emulator),
    `  Stop with Ctrl+C.`,
    '',
  ].join('\n');
}

/** The CLI's gRPC port when none is given: the next after the HTTP port (4546), a free one when that is 0. */
const defaultGrpcPort = (httpPort: number) => (httpPort === 0 ? 0 : Math.min(httpPort + 1, 65535));

/** Starts the emulator; the gRPC door on its default port is left off, with a warning, when that port is taken. */
async function startServing(settings: EmulatorSettings): Promise<RunningEmulator> {
  // The emulator is loaded when it is to run: --help, token and a usage error never load it.
  const { startWith } = await import('./start.js');
  if (settings.grpcPort !== undefined) return startWith(settings);
  return startWith({ ...settings, grpcPort: defaultGrpcPort(settings.port) }, 'serve-without');
}

async function serve(flags: Flags): Promise<void> {
  // This process is the emulator's own: V8 may be tuned for its request path (inlining-budget.ts).
  const settings = await settingsFrom(flags);
  const budget = widenInliningBudget(settings.store);
  keepTickShape();
  const emulator = await startServing(settings);
  emulator.context.log.debug(
    { inliningBudget: budget },
    budget === null ? "V8's inlining budget: left as Node has it" : `V8's inlining budget set to ${budget} bytes`,
  );
  process.stdout.write(banner(emulator));
  const stop = (signal: string) => {
    emulator.context.log.info({ signal }, 'stopping: answering waiting subscribers');
    // Once every waiting long-poll's answer has left, the process can go: exiting closes the
    // sockets faster than closing thousands of them one by one. A stuck drain still leaves in 1 s
    // (10 s while a --state-file is written: cut short, the old file stays, as the write is atomic).
    setTimeout(() => process.exit(0), emulator.settings.stateFile === undefined ? 1000 : 10_000).unref();
    emulator.drain().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  watchNpxWrapper(() => stop('npx exited'));
}

/**
 * Under `npx topics-emulator` (npm exec, through `sh -c`), a SIGTERM sent to npx ends npx and the
 * shell but never reaches this process, which would be left running on its ports. Started so
 * (npm_command=exec), the emulator stops as on SIGTERM once the process that started it is gone
 * (its parent is no longer the one it had). Run any other way, it is left alone.
 */
function watchNpxWrapper(stop: () => void): void {
  if (process.env['npm_command'] !== 'exec') return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    stop();
  }, 500);
  watch.unref();
}

/** The server settings the token command takes too. */
const tokenSettings = ['host', 'port', 'httpsPort', 'signingKey', 'endpoint'] as const;

interface TokenFlags extends Flags {
  cache: string;
  topic?: string;
  topicPrefix?: string;
  role: Permission['role'];
  ttl: number;
  tokenId?: string;
}

async function printToken(flags: TokenFlags): Promise<void> {
  const { host, port, httpsPort, signingKey, config, endpoint: endpointFlag } = flags;
  const settings = await settingsFrom({ host, port, httpsPort, signingKey, config, endpoint: endpointFlag });
  const permission = {
    role: flags.role,
    cache: flags.cache,
    ...(flags.topicPrefix !== undefined ? { topicPrefix: flags.topicPrefix } : { topic: flags.topic ?? '*' }),
  };
  const parsed = parsePermissions([permission]);
  if ('problem' in parsed) throw new SettingsError(parsed.problem);
  // As the server writes it (its HTTPS port when that is on).
  const endpoint = tokenEndpoint(settings.endpoint, settings.host, settings.port, settings.httpsPort);
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

/**
 * A usage error is one line naming the problem (and commander's nearest valid flag), then
 * `--help` named, and exit 2, as a bad config file is: the whole help is for asking, not for
 * a typo. Help and --version still exit 0.
 */
function usageErrors(command: Command): Command {
  return command
    .showHelpAfterError(`(${command.name() === 'topics-emulator' ? '' : `${command.name()} `}--help lists the options)`)
    .configureOutput({
      outputError: (text, write) =>
        write(
          `topics-emulator: ${text.replace(/^error: /, '').replace(/\n\(Did you mean (.+)\?\)/, ' (did you mean $1?)')}`,
        ),
    })
    .exitOverride((error) => {
      process.exit(error.exitCode === 0 ? 0 : 2);
    });
}

const program = usageErrors(
  new Command('topics-emulator')
    .description('A local emulator of the Topics HTTP API: publish and long-poll subscribe.')
    .version(version)
    .enablePositionalOptions(),
);
for (const [group, keys] of Object.entries(settingGroups))
  for (const key of keys) program.addOption(settingOptions.get(key)!.helpGroup(`${group}:`));
program.addOption(configFileOption.helpGroup('Config file:'));
program.addHelpText(
  'after',
  `
Examples:
  npx topics-emulator                                 serve on 127.0.0.1:4545 (the provider's SDKs on 4546)
  npx topics-emulator --https-port 4547               also over TLS, for https://api.cache.localhost:4547
  npx topics-emulator --scenario faults.yaml          start with fault rules and page changes
  npx topics-emulator --store redis://127.0.0.1:6379  a replica sharing its topics through Redis
  npx topics-emulator token --topic news --role subscribeonly --ttl 1h
  npx topics-emulator exam -- node my-client.mjs      judge your client through a gauntlet of faults
  npx topics-emulator --grpc-tls-port 4548           also the SDKs over TLS, configured from MOMENTO_API_KEY alone
  npx topics-conformance --base-url URL --token T --cache C
                                                      check any endpoint, live or emulated, against the contract
  npx topics-conformance history --base-url URL --token T --cache C
                                                      find lost, duplicated, reordered messages under concurrent load

Every option is also an environment variable (shown) and a key of a --config file.`,
);
program.action((flags: Flags) => serve(flags));

const token = program
  .command('token')
  .description('print a token signed for this configuration (same --signing-key / --config as the server)')
  .option('--cache <name>', "cache the token grants, or '*'", '*')
  .option('--topic <name>', "topic the token grants, or '*' (default)")
  .option('--topic-prefix <prefix>', 'grant every topic whose name starts with this')
  .addOption(new Option('--role <role>', 'what the token may do').choices([...roles]).default('publishsubscribe'))
  .addOption(
    new Option('--ttl <duration>', 'lifetime, at most 25h (plain numbers are seconds)')
      .default(tokenTtlSeconds.default * 1000, `${tokenTtlSeconds.default / 3600}h`)
      .argParser(duration(1000)),
  )
  .option('--token-id <id>', 'an id for the token (at most 64 characters)')
  .action((flags: TokenFlags) => printToken(flags));
usageErrors(token);
for (const key of tokenSettings) token.addOption(settingOptions.get(key)!);
token.addOption(configFileOption);

program.addCommand(usageErrors(examCommand([...settingOptions.values(), configFileOption], settingsFrom)));

/** What to do when a port cannot be listened on, by the error's code; `flag`: the port's option. */
const LISTEN_HINTS: Readonly<Record<string, (flag: string) => string>> = {
  EADDRINUSE: (flag) =>
    `another program holds that port, perhaps an emulator already running: stop it, or choose another with ${flag} (0: any free port)`,
  EACCES: (flag) => `this user may not listen on that port: choose one above 1023 with ${flag}`,
  EADDRNOTAVAIL: () => 'no network interface of this machine has that address: check --host',
};

// A first word that is no command (`exma`) is named as one, with the nearest command, rather
// than commander's "too many arguments".
const firstWord = process.argv[2];
const commandNames = program.commands.map((command) => command.name());
if (firstWord !== undefined && !firstWord.startsWith('-') && !commandNames.includes(firstWord)) {
  const near = nearest(firstWord, commandNames, 2);
  program.error(
    `unknown command '${firstWord}' ${near ? `(did you mean ${near}?)` : `(the commands are ${commandNames.join(' and ')})`}`,
  );
}

program.parseAsync().catch((error: unknown) => {
  // A port not listened on: the HTTP port's (from fastify), or the one `setting` names (start.ts).
  const { code, setting } = error as NodeJS.ErrnoException & { setting?: SettingKey };
  const hint = code === undefined ? undefined : LISTEN_HINTS[code];
  if (hint !== undefined) {
    const what = error instanceof SettingsError ? error.message : `cannot listen: ${(error as Error).message}`;
    process.stderr.write(`topics-emulator: ${what} (${hint(settingOptions.get(setting ?? 'port')!.long!)})\n`);
    process.exit(2);
  }
  if (error instanceof SettingsError || (error as Error).message?.startsWith('ttlSeconds')) {
    process.stderr.write(`topics-emulator: ${(error as Error).message}\n`);
    process.exit(2);
  }
  process.stderr.write(`topics-emulator: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
