import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

// The client under examination as a process of its own process group, so that stopping it
// stops whatever it started too (`npm run x` starts a shell that starts node): nothing is left
// running when the exam ends, however it ends.

/** How long the command gets to leave after SIGTERM before SIGKILL. */
export const STOP_GRACE_MS = 2000;
/** How long the command's output may stay open after it exited (a background child holding it). */
const OUTPUT_DRAIN_MS = 300;

export interface Exit {
  code: number | null;
  signal: string | null;
  error?: Error;
}

export interface ClientProcess {
  exited: Promise<Exit>;
  /** SIGTERM to the whole group, SIGKILL after STOP_GRACE_MS; resolves once the command has exited. */
  stop(): Promise<Exit>;
}

export interface ClientProcessOptions {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  onLine: (line: string) => void;
  onError: (chunk: string) => void;
}

export function startClientProcess(options: ClientProcessOptions): ClientProcess {
  const child = spawn(options.command, [...options.args], {
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group
  });
  let exit: Exit | undefined;
  const exited = new Promise<Exit>((resolve) => {
    child.once('error', (error) => resolve((exit = { code: null, signal: null, error })));
    // Its last lines are read (its output closes) before the exit counts, unless something it
    // started in the background keeps the output open: then OUTPUT_DRAIN_MS is all they get.
    child.once('exit', (code, signal) => {
      const done = () => resolve((exit ??= { code, signal }));
      if (child.stdout.readableEnded) return done();
      const bound = setTimeout(done, OUTPUT_DRAIN_MS);
      child.stdout.once('end', () => {
        clearTimeout(bound);
        done();
      });
    });
  });
  createInterface({ input: child.stdout }).on('line', options.onLine);
  child.stderr.setEncoding('utf8').on('data', options.onError);
  const signalGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  let stopping: Promise<Exit> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // The group may outlive its leader (a shell's children): it is signalled even after the exit.
      signalGroup('SIGTERM');
      const kill = setTimeout(() => signalGroup('SIGKILL'), STOP_GRACE_MS);
      const result = exit ?? (await exited);
      clearTimeout(kill);
      signalGroup('SIGKILL');
      return result;
    })());
  return { exited, stop };
}
