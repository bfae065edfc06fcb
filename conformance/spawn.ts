// Without --base-url, the CLI tests a fresh emulator of this package: it starts the
// `topics-emulator` program as a child process (never importing its code, so the suite
// stays a black-box client) and reads the base URL and key from what it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SpawnedEmulator {
  baseUrl: string;
  token: string;
  cache: string;
  stop(): Promise<void>;
}

/** The emulator's CLI next to this file: compiled beside dist/conformance, or the sources. */
function emulatorEntry(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, '..', 'emulator', 'cli.js'), join(here, '..', 'emulator', 'cli.ts')]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export async function spawnEmulator(timeoutMs = 20_000): Promise<SpawnedEmulator> {
  const entry = emulatorEntry();
  if (!entry) throw new Error('no --base-url given and no topics-emulator next to the suite to start');
  // Running from sources (tsx), the child needs the same loader flags as this process.
  const child: ChildProcess = spawn(
    process.execPath,
    [...process.execArgv, entry, '--port', '0', '--host', '127.0.0.1', '--log-level', 'warn'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const started = await new Promise<{ baseUrl: string; token: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the emulator did not print its base URL within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const url = /Base URL:\s+(http:\/\/\S+)/.exec(output)?.[1];
      const key = /API key:\s+(\S+)/.exec(output)?.[1];
      if (url && key) {
        clearTimeout(timer);
        resolve({ baseUrl: url, token: key });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited (${code}) before it was ready:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { ...started, cache: 'default-cache', stop };
}
