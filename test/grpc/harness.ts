import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  ExperimentalMomentoLocalTestConfigMiddleware,
  type ExperimentalMomentoLocalTestConfigMetadata,
} from '@gomomento/sdk/dist/src/config/middleware/experimental-momento-local-test-config-middleware.js';
import { CredentialProvider, TopicClient, TopicConfigurations, type TopicConfiguration } from '@gomomento/sdk';
import type { cache_client as PubsubTypes } from '@gomomento/generated-types/dist/cachepubsub.js';
import { credentials } from '@grpc/grpc-js';
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

/** The provider's generated messages and client, for what the SDK never sends (a cursor of its choosing, a bad value). */
export const pubsub = (
  createRequire(import.meta.url)('@gomomento/generated-types/dist/cachepubsub.js') as {
    cache_client: typeof PubsubTypes;
  }
).cache_client.pubsub;

/** A bare generated Pubsub client on the emulator's gRPC door (no token: full access); close it when done. */
export function rawPubsubClient(emulator: RunningEmulator): PubsubTypes.pubsub.PubsubClient {
  return new pubsub.PubsubClient(emulator.grpcEndpoint!, credentials.createInsecure());
}

/** momento-local's fault metadata as the SDK's own middleware sends it, under a fresh request id. */
export type MomentoLocalMetadata = Omit<ExperimentalMomentoLocalTestConfigMetadata, 'requestId'>;

export function momentoLocalMiddleware(metadata: MomentoLocalMetadata) {
  return [new ExperimentalMomentoLocalTestConfigMiddleware({ requestId: randomUUID(), ...metadata })];
}

/** One gRPC message in gRPC(-web)'s framing: a flag byte (0: a message), its length, the message. */
export function webFrame(message: Uint8Array) {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, Buffer.from(message)]);
}
