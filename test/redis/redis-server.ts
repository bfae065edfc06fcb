import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A real redis-server for one test file: a free port (a listener on port 0, closed first), no
// persistence (`--save ''`, no append-only file) unless asked for, and its working directory (a
// temporary one, where an append-only file is written) removed at stop.

export interface RedisOptions {
  /** An append-only file synced at every write, so a restart (even after SIGKILL) keeps every acknowledged change. */
  persistence?: boolean;
}

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGKILL, as a crash would) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty without persistence) and waits until it answers PING. */
  restart(): Promise<void>;
  /** Stops the process (SIGSTOP): connections stay open and nothing answers, as a hung Redis does. */
  pause(): void;
  /** Lets it go on (SIGCONT). */
  resume(): void;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Whether the server answers PING on `port`; one attempt bounded by 500 ms. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

async function answering(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    if (await pings(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 25)); // polling a child process's port
  }
  throw new Error(`redis-server did not answer on port ${port} within 10 s`);
}

export async function startRedis(options: RedisOptions = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'te-redis-'));
  const persistence = options.persistence ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  let child: ChildProcess;
  const launch = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir],
      {
        stdio: 'ignore',
      },
    );
    await answering(port, child);
  };
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    restart: launch,
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    async stop() {
      child.kill('SIGCONT');
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
