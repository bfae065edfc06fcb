import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

// Probe: a FIFO named as a file the emulator reads (a scenario, an exam scenario, a config file, a
// certificate in --tls-dir) hung the start for ever: reading a FIFO with no writer never ends.
// Each is refused at once, exit 2, saying the file is not a regular one.

const dir = mkdtempSync(join(tmpdir(), 'fifo-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fifo(path: string): string {
  execFileSync('mkfifo', [path]);
  return path;
}

describe('a FIFO where a file is read', () => {
  it.each([
    ['--scenario', () => ['--port', '0', '--scenario', fifo(join(dir, 'scenario.yaml'))]],
    ['--config', () => ['--port', '0', '--config', fifo(join(dir, 'config.yaml'))]],
    ['exam --scenario', () => ['exam', '--scenario', fifo(join(dir, 'plan.yaml')), '--', process.execPath, '-e', '0']],
    [
      'a certificate in --tls-dir',
      () => {
        const tls = join(dir, 'tls');
        mkdirSync(tls);
        fifo(join(tls, 'ca.pem'));
        fifo(join(tls, 'ca-key.pem'));
        return ['--port', '0', '--https-port', '0', '--tls-dir', tls];
      },
    ],
  ])('is refused at once: %s', async (_what, args) => {
    const run = runCli(args());
    const timer = setTimeout(() => run.child.kill('SIGKILL'), 15_000);
    const code = await run.exited;
    clearTimeout(timer);
    expect(code, run.stdout() + run.stderr()).toBe(2);
    expect(run.stderr()).toMatch(/is not a regular file/);
  });
});
