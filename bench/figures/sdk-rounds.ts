import { BenchChild } from '../ipc.js';
import { ServerProcess } from '../servers/server-process.js';
import { alternating, withSettings, type BenchContext, type Contender } from './figure.js';

// What the figures driven by the provider's SDK share: the emulator (its gRPC door on) and B-grpc,
// each round both started afresh in alternating order, the SDK in its own process
// (load/sdk-child.ts) pointed at the one under test.

/** The rounds' results by contender ('ours', 'b-grpc'); undefined when the emulator is not built. */
export async function sdkRounds<Round>(
  context: BenchContext,
  measure: (sdk: BenchChild, endpoint: string, contender: string, server: ServerProcess) => Promise<Round>,
): Promise<Map<string, Round[]> | undefined> {
  const ours = withSettings(context.ours, { grpcPort: 0 });
  if (ours === undefined) return undefined;
  const contenders: Contender[] = [
    { name: 'ours', spec: { ...ours, probes: false } },
    { name: 'b-grpc', spec: { kind: 'b-grpc', probes: false } },
  ];
  const results = new Map<string, Round[]>(contenders.map((c) => [c.name, []]));
  for (let i = 0; i < context.options.runs; i++)
    for (const contender of alternating(i, contenders)) {
      const server = await ServerProcess.start(contender.spec);
      const sdk = new BenchChild('load/sdk-child', {}, { quiet: true });
      try {
        const endpoint = server.grpcEndpoint;
        if (endpoint === undefined) throw new Error(`${contender.name} has no gRPC endpoint`);
        results.get(contender.name)!.push(await measure(sdk, endpoint, contender.name, server));
      } finally {
        await sdk.stop();
        await server.stop();
      }
    }
  return results;
}
