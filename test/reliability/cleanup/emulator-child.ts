import { startEmulator, type EmulatorSettings } from '../../../emulator/index.js';

// An emulator in its own process, started with --expose-gc, so its heap can be measured alone
// and after a full collection. It answers the parent's 'measure' messages over IPC.

export interface ChildMeasure {
  heapUsed: number;
  rss: number;
  waiting: number;
  pendingTimers: number;
  connections: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
const settings = JSON.parse(process.argv[2] ?? '{}') as Partial<EmulatorSettings>;
const emulator = await startEmulator({ port: 0, logLevel: 'silent', ...settings });

const connections = () =>
  new Promise<number>((resolve) => emulator.app.server.getConnections((_error, count) => resolve(count)));

async function answer(message: { id: number; gc?: boolean; close?: boolean }): Promise<void> {
  if (message.close) {
    await emulator.close();
    process.send!({ id: message.id, closed: true });
    return;
  }
  if (message.gc && gc) {
    // Two collections: the first may only queue finalizers.
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  const measure: ChildMeasure = {
    heapUsed: process.memoryUsage().heapUsed,
    rss: process.memoryUsage().rss,
    waiting: emulator.context.waiting.size,
    pendingTimers: emulator.context.clock.state().pendingTimers,
    connections: await connections(),
  };
  process.send!({ id: message.id, measure });
}
process.on('message', (message: { id: number; gc?: boolean; close?: boolean }) => void answer(message));
process.send!({ url: emulator.url, gc: gc !== undefined });
