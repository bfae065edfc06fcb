import { createServer, connect, type Server } from 'node:net';
import { once } from 'node:events';
import type { TestProject } from 'vitest/node';
import { baseUrlOf, printed, runCli, type CliRun } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../redis/redis-server.js';

// `npm run test:sdk`'s one emulator, as the SDK's own suites run momento-local: the CLI users run
// (`npx topics-emulator`), with its gRPC and test-admin ports and no other setting. Port 0 for
// each, so the suites run beside anything else on the machine; the banner says which ports they got.
//
// `npm run test:sdk:redis` (SDK_SUITES_STORE=redis) runs the cache suites against two replicas of
// one emulator on a redis-server instead: the SDK connects through a proxy that hands its
// connections to one replica and the other in turn, and opens three (`laptop()` in sdk.ts), so
// one call goes to one replica and the next to the other.

export interface SdkSuiteEmulator {
  baseUrl: string;
  grpcPort: number;
  testAdminPort: number;
  /** Two replicas on one Redis behind the proxy. */
  replicas: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    sdkEmulator: SdkSuiteEmulator;
  }
}

const grpcPortOf = async (run: CliRun) =>
  Number(/:(\d+)$/.exec((await printed(run, /gRPC:\s+\S+/)).split(/\s+/)[1]!)![1]);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.SDK_SUITES_STORE === 'redis') return replicas(project);
  const run = runCli(['--port', '0', '--grpc-port', '0', '--test-admin-port', '0']);
  const baseUrl = await baseUrlOf(run);
  const grpcPort = await grpcPortOf(run);
  const testAdminPort = Number(/:(\d+)/.exec(await printed(run, /Test admin: http:\/\/\S+/))![1]);
  project.provide('sdkEmulator', { baseUrl, grpcPort, testAdminPort, replicas: false });
  return async () => {
    run.child.kill('SIGTERM');
    await run.exited;
  };
}

async function replicas(project: TestProject): Promise<() => Promise<void>> {
  const redis: RedisServer = await startRedis();
  const runs = [0, 1].map(() =>
    runCli(['--port', '0', '--grpc-port', '0', '--store', redis.url, '--store-prefix', 'sdk-suites:']),
  );
  const baseUrl = await baseUrlOf(runs[0]!);
  await baseUrlOf(runs[1]!);
  const ports = await Promise.all(runs.map(grpcPortOf));
  let next = 0;
  const proxy: Server = createServer((socket) => {
    const upstream = connect(ports[next++ % ports.length]!, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  const grpcPort = (proxy.address() as { port: number }).port;
  project.provide('sdkEmulator', { baseUrl, grpcPort, testAdminPort: 0, replicas: true });
  return async () => {
    proxy.close();
    for (const run of runs) run.child.kill('SIGTERM');
    await Promise.all(runs.map((run) => run.exited));
    await redis.stop();
  };
}
