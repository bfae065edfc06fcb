import type { TestProject } from 'vitest/node';
import { baseUrlOf, printed, runCli, type CliRun } from '../helpers/cli.js';

// `npm run test:sdk`'s one emulator, as the SDK's own suites run momento-local: the CLI users run
// (`npx topics-emulator`), with its gRPC and test-admin ports and no other setting. Port 0 for
// each, so the suites run beside anything else on the machine; the banner says which ports they got.

export interface SdkSuiteEmulator {
  baseUrl: string;
  grpcPort: number;
  testAdminPort: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    sdkEmulator: SdkSuiteEmulator;
  }
}

let run: CliRun | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  run = runCli(['--port', '0', '--grpc-port', '0', '--test-admin-port', '0']);
  const baseUrl = await baseUrlOf(run);
  const grpcPort = Number(/:(\d+)$/.exec((await printed(run, /gRPC:\s+\S+/)).split(/\s+/)[1]!)![1]);
  const testAdminPort = Number(/:(\d+)/.exec(await printed(run, /Test admin: http:\/\/\S+/))![1]);
  project.provide('sdkEmulator', { baseUrl, grpcPort, testAdminPort });
  return async () => {
    run?.child.kill('SIGTERM');
    await run?.exited;
  };
}
