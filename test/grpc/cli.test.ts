import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { CredentialProvider, TopicClient, TopicConfigurations, TopicPublishResponse } from '@gomomento/sdk';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { baseUrlOf, printed, runCli, type CliRun } from '../helpers/cli.js';

// `npx topics-emulator` opens the gRPC door for the provider's SDKs and says how to use it; a
// default port that is taken leaves the door off with a warning instead of failing the start.

const runs: CliRun[] = [];
let blocker: Server | undefined;
afterEach(async () => {
  for (const run of runs.splice(0)) {
    run.child.kill('SIGTERM');
    await run.exited;
  }
  await new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve()));
  blocker = undefined;
});

function isFree(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

describe('the CLI’s gRPC door', () => {
  it('prints the gRPC endpoint with an SDK snippet that works as printed', async () => {
    const run = runCli(['--port', '0']);
    runs.push(run);
    await baseUrlOf(run);
    const line = await printed(run, /gRPC: +127\.0\.0\.1:(\d+) \(plaintext/);
    const port = Number(/:(\d+)/.exec(line)![1]);
    expect(run.stdout()).toContain(`CredentialProvider.forMomentoLocal({ hostname: '127.0.0.1', port: ${port} })`);
    const topics = new TopicClient({
      configuration: TopicConfigurations.Default.latest(),
      credentialProvider: CredentialProvider.forMomentoLocal({ hostname: '127.0.0.1', port }),
    });
    expect((await topics.publish('default-cache', 'greetings', 'hello')).type).toBe(TopicPublishResponse.Success);
  });

  it('leaves the door off, with a warning, when the default port (HTTP + 1) is taken', async () => {
    // A taken port whose neighbour below is free (for the HTTP API).
    let taken = 0;
    while (taken === 0) {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      if (await isFree(port - 1)) {
        blocker = server;
        taken = port;
      } else await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // With a scenario: the emulator starts once, so its start-up is applied (and logged) once.
    const dir = mkdtempSync(join(tmpdir(), 'grpc-taken-'));
    const scenario = join(dir, 'scenario.yaml');
    writeFileSync(scenario, 'faults:\n  - { operation: publish, topic: t, status: 503, count: 1 }\n');
    const run = runCli(['--port', String(taken - 1), '--scenario', scenario, '--log-format', 'json']);
    runs.push(run);
    const url = await baseUrlOf(run);
    expect(url).toBe(`http://127.0.0.1:${taken - 1}`);
    expect(run.stdout()).not.toMatch(/gRPC:/);
    await printed(run, new RegExp(`gRPC port ${taken} is in use`));
    expect(run.stdout().match(/fault rule \S+ added/g)).toHaveLength(1);
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads gRPC only when an SDK connects: a run no SDK uses never loads @grpc/grpc-js', async () => {
    const script = `
      import { createRequire } from 'node:module';
      import { connect } from 'node:net';
      import { startEmulator } from './emulator/index.ts';
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((p) => p.includes('@grpc/grpc-js'));
      const emulator = await startEmulator({ port: 0, logLevel: 'silent', grpcPort: 0 });
      const before = loaded();
      const [host, port] = emulator.grpcEndpoint.split(':');
      const socket = connect(Number(port), host);
      await new Promise((resolve) => socket.once('connect', resolve));
      for (const until = Date.now() + 10_000; !loaded() && Date.now() < until; )
        await new Promise((resolve) => setTimeout(resolve, 10));
      console.log(JSON.stringify({ before, after: loaded() }));
      socket.destroy();
      await emulator.close();
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: new URL('../..', import.meta.url).pathname,
      },
    );
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ before: false, after: true });
  });
});
