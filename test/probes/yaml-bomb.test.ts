import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planFor } from '../../emulator/exam/plan.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { readScenarioFile } from '../../emulator/scenario/load.js';
import { runCli } from '../helpers/cli.js';

// Probe: a 1 KB YAML body (`[` a thousand times) sent twice to a control route killed the
// process (the first answered 400 "Maximum call stack size exceeded", the second never answered:
// exit 134, "RegExpCompiler Allocation failed"). Every YAML the emulator reads is bounded before
// it is parsed: bodies, scenarios, config files, exam plans.

const bombs = {
  'flow, 1,000 deep': '['.repeat(1000),
  'flow, 300,000 deep': '['.repeat(300_000),
  'block, 5,000 deep': '- '.repeat(5000) + 'x',
  'aliases, 9^5 nodes': [
    'a: &a [x,x,x,x,x,x,x,x,x]',
    ...['b', 'c', 'd', 'e'].map((n, i) => `${n}: &${n} [${Array(9).fill(`*${'abcd'[i]}`).join(',')}]`),
  ].join('\n'),
};

let emulator: RunningEmulator;
const dir = mkdtempSync(join(tmpdir(), 'yaml-bomb-'));
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a YAML bomb', () => {
  for (const [name, text] of Object.entries(bombs)) {
    it(`as a control body (${name}), twice, answers 400 both times and the emulator serves on`, async () => {
      for (let i = 0; i < 2; i++) {
        const response = await fetch(`${emulator.url}/_emulator/reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/yaml' },
          body: text,
        });
        expect(response.status).toBe(400);
        const body = (await response.json()) as { code: string; message: string };
        expect(body.code).toBe('invalid_request');
        expect(body.message).toMatch(/nested more than 64 levels|indented deeper than 256 columns|alias/);
      }
      const health = await fetch(`${emulator.url}/_emulator/health`);
      expect(health.status).toBe(200);
    });
  }

  it('in a scenario file, an exam plan or a config file is refused with the reason', async () => {
    const file = join(dir, 'bomb.yaml');
    writeFileSync(file, bombs['flow, 1,000 deep']);
    await expect(readScenarioFile(file)).rejects.toThrow(/nested more than 64 levels/);
    await expect(planFor(file)).rejects.toThrow(/nested more than 64 levels/);
    const run = runCli(['--config', file, '--port', '0']);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toMatch(/nested more than 64 levels/);
  });
});
