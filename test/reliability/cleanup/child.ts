import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { EmulatorSettings } from '../../../emulator/index.js';
import type { ChildMeasure } from './emulator-child.js';

// The parent's side of emulator-child.ts: start it, ask it for measures, stop it.

export interface MeasuredEmulator {
  url: string;
  port: number;
  child: ChildProcess;
  /** Heap, waiting subscribers, pending clock timers, open connections; after a full GC when `gc`. */
  measure(gc?: boolean): Promise<ChildMeasure>;
  /** Polls measure() until `done` holds; fails after `timeoutMs`. */
  waitFor(done: (m: ChildMeasure) => boolean, what: string, timeoutMs?: number): Promise<ChildMeasure>;
  stop(): Promise<void>;
}

const script = fileURLToPath(new URL('./emulator-child.ts', import.meta.url));

export async function startMeasuredEmulator(settings: Partial<EmulatorSettings> = {}): Promise<MeasuredEmulator> {
  const child = fork(script, [JSON.stringify(settings)], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [ready] = (await Promise.race([once(child, 'message'), once(child, 'exit').then(() => [undefined])])) as [
    { url: string; gc: boolean } | undefined,
  ];
  if (!ready) throw new Error('the measured emulator exited before it was ready');
  if (!ready.gc) throw new Error('the measured emulator has no global.gc (--expose-gc)');
  let nextId = 0;
  const ask = <T>(message: object): Promise<T> => {
    const id = ++nextId;
    return new Promise((resolve, reject) => {
      const onMessage = (answer: { id: number } & T) => {
        if (answer.id !== id) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(answer);
      };
      const onExit = () => reject(new Error('the measured emulator exited'));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ id, ...message });
    });
  };
  const measure = async (gc = false) => (await ask<{ measure: ChildMeasure }>({ gc })).measure;
  return {
    url: ready.url,
    port: Number(new URL(ready.url).port),
    child,
    measure,
    async waitFor(done, what, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = await measure();
        if (done(m)) return m;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(m)}`);
      }
    },
    async stop() {
      if (child.exitCode !== null) return;
      await ask({ close: true }).catch(() => undefined);
      child.kill();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}
