import { spawn, type ChildProcess } from 'node:child_process';

// vitest's global set-up for `npm run test:load`: HOGS (default 6) CPU-bound processes beside the
// tests for the whole run, stopped at teardown. On a two-core machine they take most of the CPU,
// as a busy CI runner or a laptop building something else does.

let hogs: ChildProcess[] = [];

export function setup(): void {
  const count = Number(process.env.HOGS ?? 6);
  hogs = Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

export function teardown(): void {
  for (const hog of hogs) hog.kill('SIGKILL');
}
