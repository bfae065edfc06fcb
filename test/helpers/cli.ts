import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * The CLI as users run it (its bundle in dist/cli/, which `npm ci` builds) when that build is newer than every
 * source it comes from; otherwise from source through tsx, so a test never runs a stale build.
 */
function cli(): string[] {
  const built = `${root}dist/cli/topics-emulator.js`;
  const fresh =
    existsSync(built) &&
    statSync(built).mtimeMs > Math.max(newestSource(`${root}emulator`), newestSource(`${root}openapi`));
  return fresh ? [process.execPath, built] : [process.execPath, '--import', 'tsx', `${root}emulator/cli.ts`];
}
export const cliCommand = cli();

export interface CliRun {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** The exit code, once the process exited and its output was read to the end ('close', not 'exit': the pipes may still hold its last lines). */
  exited: Promise<number | null>;
}

/** The CLI with these arguments and environment; `nodeFlags` go to Node itself, before the CLI's script. */
export function runCli(args: string[], env: Record<string, string> = {}, nodeFlags: string[] = []): CliRun {
  const [command, ...base] = cliCommand;
  const child = spawn(command!, [...nodeFlags, ...base, ...args], { cwd: root, env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const exited = once(child, 'close').then(([code]) => code as number | null);
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Waits for the start-up banner and returns the base URL it prints. */
export async function baseUrlOf(run: CliRun, timeoutMs = 15_000): Promise<string> {
  const deadline = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  try {
    for (;;) {
      const match = /Base URL:\s+(http:\/\/\S+)/.exec(run.stdout());
      if (match) return match[1]!;
      const event = await Promise.race([
        once(run.child.stdout, 'data').then(() => 'data'),
        run.exited.then(() => 'exit'),
      ]);
      if (event === 'exit')
        throw new Error(`the emulator exited before it was ready:\n${run.stdout()}\n${run.stderr()}`);
    }
  } finally {
    clearTimeout(deadline);
  }
}

/** The first match of `line` in the CLI's stdout, waited for (a log line may follow the banner: the logger writes asynchronously). */
export async function printed(run: CliRun, line: RegExp): Promise<string> {
  while (!line.test(run.stdout())) await once(run.child.stdout, 'data');
  return line.exec(run.stdout())![0];
}
