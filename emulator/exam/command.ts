import { writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, type Option } from 'commander';
import { parseDuration } from '../durations.js';
import { clientRules } from '../../judge/catalogue.js';
import { ScenarioError } from '../scenario/load.js';
import { defaultSettings, SettingsError, type EmulatorSettings } from '../settings.js';
import { messageFormat, MessageFormatError } from './messages.js';
import { DEFAULT_START_TIMEOUT_MS, planFor, ExamPlanError } from './plan.js';
import { renderJson, renderJunit, renderText } from './report.js';
import type { ExamReport } from './run.js';

// `topics-emulator exam [options] -- <command> [args...]`: the client under test as a command.

const REPORTERS: Record<string, (report: ExamReport) => string> = { junit: renderJunit, json: renderJson };

function reportTarget(value: string, previous: [string, string][] = []): [string, string][] {
  const match = /^(junit|json)=(.+)$/.exec(value);
  if (!match) throw new InvalidArgumentError('--report takes junit=PATH or json=PATH');
  return [...previous, [match[1]!, match[2]!]];
}

function durationArg(value: string): number {
  try {
    return parseDuration(value, 1000);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

export function listRules(): string {
  return `${clientRules
    .map((r) => `${r.id} (${r.level})\n  ${r.title}\n  rests on: "${r.sentence}"\n  (${r.source})`)
    .join('\n\n')}\n`;
}

interface ExamFlags {
  scenario: string;
  duration?: number;
  startTimeout?: number;
  messages: string;
  report?: [string, string][];
  strict?: boolean;
  listRules?: boolean;
  logLevel?: EmulatorSettings['logLevel'];
}

/** The subcommand; `serverOptions` are the emulator's flags it accepts too, `settingsFrom` resolves them. */
export function examCommand<Flags extends object>(
  serverOptions: readonly Option[],
  settingsFrom: (flags: Flags) => Promise<EmulatorSettings>,
): Command {
  const command = new Command('exam')
    .description(
      'run a client command against a fresh emulator, play a gauntlet of faults, and judge what the client did (exit 0 passed, 1 failed, 2 could not judge, could not start, or a usage error)',
    )
    .argument('[command...]', 'the client to examine, after --')
    .option('--scenario <name|file>', 'standard, compact, or a scenario file with an exam member', 'standard')
    .option(
      '--duration <duration>',
      'how long the exam runs before it stops the command (plain numbers are seconds; default 60s)',
      durationArg,
    )
    .option(
      '--start-timeout <duration>',
      `how long to wait for the command's first request; the plan starts with it (default ${DEFAULT_START_TIMEOUT_MS / 1000}s)`,
      durationArg,
    )
    .option(
      '--messages <text|json|file>',
      'what each message is: text ("exam message N"), json ({"n":N,"text":"exam message N"}), or a template file holding {{text}} and {{n}}',
      'json',
    )
    .option('--report <kind=path>', 'also write junit=PATH or json=PATH (repeatable)', reportTarget)
    .option('--strict', 'advice-level violations fail the exam too (contract and harm ones always do)')
    .option('--list-rules', 'print the client rules, their levels and sentences, and exit')
    .passThroughOptions();
  const skip = new Set(['--host', '--port', '--scenario', '--control', '--admin-key']);
  for (const option of serverOptions) if (!skip.has(option.long!)) command.addOption(option);
  return command.action(async (args: string[], flags: ExamFlags & Flags) => {
    const {
      scenario,
      duration,
      startTimeout,
      messages,
      report: reports,
      strict,
      listRules: rulesOnly,
      ...serverFlags
    } = flags;
    if (rulesOnly) {
      process.stdout.write(listRules());
      return;
    }
    if (args.length === 0) {
      process.stderr.write('topics-emulator exam: name the client command after --, e.g. exam -- node client.mjs\n');
      process.exitCode = 2;
      return;
    }
    try {
      // Only what the flags (or a config file) changed: the plan chooses the rest, e.g. its long-poll timeout.
      const settings = Object.fromEntries(
        Object.entries(await settingsFrom(serverFlags as Flags)).filter(
          ([key, value]) => JSON.stringify(value) !== JSON.stringify(defaultSettings[key as keyof EmulatorSettings]),
        ),
      ) as Partial<EmulatorSettings>;
      const plan = await planFor(scenario, duration);
      const format = await messageFormat(messages);
      // Ctrl-C stops the command's whole process group and reports what was seen.
      const interrupted = new AbortController();
      const interrupt = () => interrupted.abort();
      process.once('SIGINT', interrupt).once('SIGTERM', interrupt);
      // The emulator and everything an exam runs are loaded when one runs, not for --help.
      const { runExam } = await import('./run.js');
      const report = await runExam({
        command: args[0]!,
        args: args.slice(1),
        plan,
        messages: format,
        ...(startTimeout !== undefined ? { startTimeoutMs: startTimeout } : {}),
        settings: { ...settings, logLevel: flags.logLevel ?? 'silent' },
        strict: strict ?? false,
        signal: interrupted.signal,
      }).finally(() => process.off('SIGINT', interrupt).off('SIGTERM', interrupt));
      process.stdout.write(renderText(report));
      for (const [kind, path] of reports ?? []) writeFileSync(path, REPORTERS[kind]!(report));
      process.exitCode = report.exitCode;
    } catch (error) {
      if (
        error instanceof ExamPlanError ||
        error instanceof MessageFormatError ||
        error instanceof ScenarioError ||
        error instanceof SettingsError
      ) {
        process.stderr.write(`topics-emulator exam: ${error.message}\n`);
        process.exitCode = 2;
        return;
      }
      throw error;
    }
  });
}
