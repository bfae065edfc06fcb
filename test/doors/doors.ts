import { credentials, Metadata, type ClientReadableStream } from '@grpc/grpc-js';
import { TopicClient, TopicConfigurations, TopicPublish } from '@gomomento/sdk';
import { EmulatorError, isErrorCode } from '../../emulator/errors.js';
import { grpcFailureOf } from '../../emulator/grpc/status.js';
import type { RunningEmulator } from '../../emulator/index.js';
import { momentoLocal, pubsub } from '../grpc/harness.js';

// The three doors of one emulator, each driven as its users drive it: the HTTP API with fetch,
// the gRPC port with the provider's SDK (publish) and its generated client (a stream whose end
// the test reads, where the SDK would resubscribe), gRPC-web with fetch and gRPC-web framing, as
// sdk-web sends it. Every outcome is told in one vocabulary, so a behaviour's test is written once
// and asserted for every door: an error is the gRPC status the emulator's registry gives its code.

export type Outcome =
  | { kind: 'items'; values: string[] }
  /** Ended without items: a long-poll's empty answer, a stream's OK end. */
  | { kind: 'ended' }
  | { kind: 'error'; status: number }
  /** The connection was dropped, or the call cancelled. */
  | { kind: 'dropped' };

export interface Waiting {
  /** Resolves with how the subscription ended (a stream: its first items end it here). */
  outcome: Promise<Outcome>;
  /** The client leaves. */
  leave(): void;
}

export interface Door {
  name: 'http' | 'grpc' | 'grpc-web';
  /** `protocol` in the journal. */
  protocol: 'http' | 'grpc';
  publish(topic: string, text: string): Promise<Outcome>;
  /** A subscriber that waits (a first request at the topic's end), with the door's own credential or this one. */
  subscribe(topic: string, cache?: string, credential?: string): Waiting;
  close(): void;
}

const errorOf = (code: string): Outcome =>
  isErrorCode(code)
    ? { kind: 'error', status: grpcFailureOf(new EmulatorError(code)).code }
    : { kind: 'error', status: -1 };

function httpDoor(emulator: RunningEmulator): Door {
  const headers = { authorization: emulator.apiKey };
  const outcomeOf = async (response: Response): Promise<Outcome> => {
    if (response.status === 204) return { kind: 'ended' };
    const body = (await response.json()) as { items?: { item?: { value: { text: string } } }[]; code?: string };
    if (response.status !== 200) return errorOf(body.code ?? '');
    const values = (body.items ?? []).flatMap((i) => (i.item ? [i.item.value.text] : []));
    return values.length === 0 ? { kind: 'ended' } : { kind: 'items', values };
  };
  return {
    name: 'http',
    protocol: 'http',
    publish: async (topic, text) =>
      outcomeOf(
        await fetch(`${emulator.url}/topics/default-cache/${topic}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'text/plain' },
          body: text,
        }),
      ).catch(() => ({ kind: 'dropped' })),
    subscribe(topic, cache = 'default-cache', credential = emulator.apiKey) {
      const controller = new AbortController();
      const outcome = fetch(`${emulator.url}/topics/${cache}/${topic}`, {
        headers: { authorization: credential },
        signal: controller.signal,
      })
        .then(outcomeOf)
        .catch((): Outcome => ({ kind: 'dropped' }));
      return { outcome, leave: () => controller.abort() };
    },
    close() {},
  };
}

function grpcDoor(emulator: RunningEmulator): Door {
  const topics = new TopicClient({
    configuration: TopicConfigurations.Default.latest(),
    credentialProvider: momentoLocal(emulator),
  });
  const raw = new pubsub.PubsubClient(emulator.grpcEndpoint!, credentials.createInsecure());
  return {
    name: 'grpc',
    protocol: 'grpc',
    async publish(topic, text) {
      const response = await topics.publish('default-cache', topic, text);
      if (response instanceof TopicPublish.Success) return { kind: 'ended' };
      if (response instanceof TopicPublish.Error) {
        const status = (response.innerException() as { code?: number } | undefined)?.code;
        // The SDK keeps the gRPC status on its inner error; UNAVAILABLE after its own retries.
        return { kind: 'error', status: typeof status === 'number' ? status : -1 };
      }
      return { kind: 'error', status: -1 };
    },
    subscribe(topic, cache = 'default-cache', credential) {
      const metadata = new Metadata();
      if (credential !== undefined) metadata.set('authorization', credential);
      const stream: ClientReadableStream<InstanceType<typeof pubsub._SubscriptionItem>> = raw.Subscribe(
        new pubsub._SubscriptionRequest({ cache_name: cache, topic }),
        metadata,
      );
      const outcome = new Promise<Outcome>((resolve) => {
        stream.on('data', (item: InstanceType<typeof pubsub._SubscriptionItem>) => {
          if (item.kind !== 'item') return;
          resolve({ kind: 'items', values: [item.item.value.text] });
          stream.cancel();
        });
        stream.on('error', (error: { code: number }) =>
          resolve(error.code === 1 ? { kind: 'dropped' } : { kind: 'error', status: error.code }),
        );
        stream.on('end', () => resolve({ kind: 'ended' }));
      });
      return { outcome, leave: () => stream.cancel() };
    },
    close() {
      raw.close();
    },
  };
}

/** gRPC-web's frames: a flag byte, a length, a message; the trailer frame is flagged 0x80. */
const frame = (message: Uint8Array) => {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, Buffer.from(message)]);
};

function framesOf(bytes: Buffer): [number, Buffer][] {
  const frames: [number, Buffer][] = [];
  for (let at = 0; at + 5 <= bytes.length;) {
    const length = bytes.readUInt32BE(at + 1);
    if (at + 5 + length > bytes.length) break;
    frames.push([bytes[at]!, bytes.subarray(at + 5, at + 5 + length)]);
    at += 5 + length;
  }
  return frames;
}

function webDoor(emulator: RunningEmulator): Door {
  const call = (method: string, message: Uint8Array, signal?: AbortSignal, credential = emulator.apiKey) =>
    fetch(`${emulator.url}/cache_client.pubsub.Pubsub/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/grpc-web+proto', authorization: credential },
      body: frame(message),
      ...(signal ? { signal } : {}),
    });
  const statusOf = (trailer: Buffer) => Number(/grpc-status: (\d+)/.exec(trailer.toString('latin1'))?.[1] ?? -1);
  return {
    name: 'grpc-web',
    protocol: 'grpc',
    async publish(topic, text) {
      try {
        const response = await call(
          'Publish',
          new pubsub._PublishRequest({
            cache_name: 'default-cache',
            topic,
            value: new pubsub._TopicValue({ text }),
          }).serializeBinary(),
        );
        const trailer = framesOf(Buffer.from(await response.arrayBuffer())).find(([flag]) => flag === 0x80);
        if (!trailer) return { kind: 'dropped' };
        const status = statusOf(trailer[1]);
        return status === 0 ? { kind: 'ended' } : { kind: 'error', status };
      } catch {
        return { kind: 'dropped' };
      }
    },
    subscribe(topic, cache = 'default-cache', credential) {
      const controller = new AbortController();
      const outcome = (async (): Promise<Outcome> => {
        const response = await call(
          'Subscribe',
          new pubsub._SubscriptionRequest({ cache_name: cache, topic }).serializeBinary(),
          controller.signal,
          credential,
        );
        const reader = response.body!.getReader();
        let bytes = Buffer.alloc(0);
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return { kind: 'ended' };
          bytes = Buffer.concat([bytes, Buffer.from(value)]);
          for (const [flag, message] of framesOf(bytes)) {
            if (flag === 0x80) {
              const status = statusOf(message);
              return status === 0 ? { kind: 'ended' } : { kind: 'error', status };
            }
            const item = pubsub._SubscriptionItem.deserializeBinary(message);
            if (item.kind === 'item') {
              controller.abort();
              return { kind: 'items', values: [item.item.value.text] };
            }
          }
        }
      })().catch((): Outcome => ({ kind: 'dropped' }));
      return { outcome, leave: () => controller.abort() };
    },
    close() {},
  };
}

export const DOORS = ['http', 'grpc', 'grpc-web'] as const;

export function doorOf(name: (typeof DOORS)[number], emulator: RunningEmulator): Door {
  if (name === 'http') return httpDoor(emulator);
  if (name === 'grpc') return grpcDoor(emulator);
  return webDoor(emulator);
}

/** gRPC status codes the cases name. */
export const STATUS = { INTERNAL: 13, UNAVAILABLE: 14, UNAUTHENTICATED: 16 } as const;
