import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The CLI from source, through tsx, so tests never run a stale build. */
export const cliCommand = [process.execPath, '--import', 'tsx', `${root}emulator/cli.ts`];

export interface CliRun {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

export function runCli(args: string[], env: Record<string, string> = {}): CliRun {
  const [command, ...base] = cliCommand;
  const child = spawn(command!, [...base, ...args], { cwd: root, env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Waits for the start-up banner and returns the base URL it prints. */
export async function baseUrlOf(run: CliRun, timeoutMs = 15_000): Promise<string> {
  const deadline = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  try {
    for (;;) {
      const match = /Base URL:\s+(http:\/\/\S+)/.exec(run.stdout());
      if (match) return match[1]!;
      const event = await Promise.race([once(run.child.stdout, 'data').then(() => 'data'), run.exited.then(() => 'exit')]);
      if (event === 'exit') throw new Error(`the emulator exited before it was ready:\n${run.stdout()}\n${run.stderr()}`);
    }
  } finally {
    clearTimeout(deadline);
  }
}
