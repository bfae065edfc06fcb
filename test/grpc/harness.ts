import { CredentialProvider, TopicClient, TopicConfigurations, type TopicConfiguration } from '@gomomento/sdk';
import { startEmulator, type EmulatorSettings, type RunningEmulator } from '../../emulator/index.js';

// What the gRPC tests share: an emulator with its gRPC door on a free port, and the provider's
// SDK pointed at it as at momento-local.

export function startGrpcEmulator(settings: Partial<EmulatorSettings> = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', grpcPort: 0, ...settings });
}

/** `forMomentoLocal` at the emulator's gRPC door (an empty token: full access). */
export function momentoLocal(emulator: RunningEmulator) {
  const [hostname, port] = emulator.grpcEndpoint!.split(':');
  return CredentialProvider.forMomentoLocal({ hostname: hostname!, port: Number(port) });
}

export function sdkTopicClient(
  emulator: RunningEmulator,
  configuration: TopicConfiguration = TopicConfigurations.Default.latest(),
): TopicClient {
  return new TopicClient({ configuration, credentialProvider: momentoLocal(emulator) });
}
