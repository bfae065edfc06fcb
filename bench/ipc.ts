import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { benchDir, childExecArgv, moduleExtension } from './paths.js';

// A tiny request/reply protocol over the IPC channel of a forked child: the harness asks a server
// or the subscriber swarm to do something and waits for its answer, without an HTTP side door
// that would itself load the server being measured.

interface Request {
  id: number;
  command: string;
  args: unknown;
}
interface Reply {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}
interface Announcement {
  event: string;
  data: unknown;
}

export type Handlers = Record<string, (args: never) => unknown>;

/** Child side: answer the parent's requests with `handlers`. */
export function serveParent(handlers: Handlers): void {
  process.on('message', (message: Request) => {
    const handler = handlers[message.command] as ((args: unknown) => unknown) | undefined;
    const answer = (reply: Reply): void => {
      process.send?.(reply);
    };
    if (handler === undefined) {
      answer({ id: message.id, ok: false, error: `unknown command ${message.command}` });
      return;
    }
    Promise.resolve()
      .then(() => handler(message.args))
      .then(
        (result) => answer({ id: message.id, ok: true, result }),
        (error: unknown) =>
          answer({
            id: message.id,
            ok: false,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          }),
      );
  });
}

/** Child side: tell the parent something happened (for example: ready, with its URL). */
export function announce(event: string, data: unknown): void {
  process.send?.({ event, data } satisfies Announcement);
}

export interface ForkOptions {
  /** Extra node flags, e.g. --expose-gc or --cpu-prof. */
  execArgv?: string[];
  /** Drop the child's stderr (its stdout always goes to our stderr). */
  quiet?: boolean;
}

/** Parent side: a forked bench child (a file beside this one, .ts or .js) and calls into it. */
export class BenchChild {
  readonly process: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly announcements = new Map<string, unknown[]>();
  private readonly listeners = new Map<string, (data: unknown) => void>();
  private exitError: Error | undefined;

  constructor(entry: string, argument: unknown, options: ForkOptions = {}) {
    this.process = fork(join(benchDir, `${entry}${moduleExtension}`), [JSON.stringify(argument)], {
      execArgv: [...childExecArgv, ...(options.execArgv ?? [])],
      stdio: ['ignore', 'pipe', options.quiet === true ? 'ignore' : 'inherit', 'ipc'],
    });
    // A child's stdout goes to our stderr: our stdout may be carrying the JSON report.
    this.process.stdout?.pipe(process.stderr);
    this.process.on('message', (message: Reply | Announcement) => {
      if ('event' in message) {
        const listener = this.listeners.get(message.event);
        if (listener !== undefined) {
          this.listeners.delete(message.event);
          listener(message.data);
        } else {
          this.announcements.set(message.event, [...(this.announcements.get(message.event) ?? []), message.data]);
        }
        return;
      }
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.ok) waiter?.resolve(message.result);
      else waiter?.reject(new Error(message.error));
    });
    this.process.on('exit', (code, signal) => {
      this.exitError = new Error(`bench child ${entry} exited (code ${code}, signal ${signal})`);
      for (const waiter of this.pending.values()) waiter.reject(this.exitError);
      this.pending.clear();
      for (const listener of this.listeners.values()) listener(undefined);
    });
  }

  call<T>(command: string, args: unknown = {}, timeoutMs = 120_000): Promise<T> {
    if (this.exitError !== undefined) return Promise.reject(this.exitError);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`bench child did not answer ${command} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as T);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.process.send({ id, command, args } satisfies Request);
    });
  }

  /** The next announcement `event` (or one already received), within `timeoutMs`. */
  next<T>(event: string, timeoutMs = 30_000): Promise<T> {
    const queued = this.announcements.get(event);
    if (queued !== undefined && queued.length > 0) return Promise.resolve(queued.shift() as T);
    if (this.exitError !== undefined) return Promise.reject(this.exitError);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(event);
        reject(new Error(`bench child did not announce ${event} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.listeners.set(event, (data) => {
        clearTimeout(timer);
        if (this.exitError !== undefined && data === undefined) reject(this.exitError);
        else resolve(data as T);
      });
    });
  }

  /** Ask the child to finish, then make sure it is gone. */
  async stop(timeoutMs = 15_000): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.process.once('exit', () => resolve()));
    try {
      await this.call('close', {}, timeoutMs);
    } catch {
      // It may exit before answering; the kill below is the backstop.
    }
    const timer = setTimeout(() => this.process.kill('SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(timer);
  }
}
