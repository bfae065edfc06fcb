import { performance } from 'node:perf_hooks';
import type { Principal } from '../auth/authenticator.js';
import type { Clock } from '../clock.js';
import { EmulatorError } from '../errors.js';
import type { EmulatorEvents } from '../events.js';
import { openedFacts, type ExchangeFacts, type SubscribeCursor } from '../exchange.js';
import { clientIdentity, hidden, recordError, recordRefusedClient, type ClientDigest } from '../recording.js';
import type { AdminOperation, CacheOperation, Effect, JOURNALLED_AS, ServiceOperation } from '../requests.js';
import type { Discontinuity } from '../topics/read-plan.js';

// What the journal, the metrics, the event stream and the client judge know of one gRPC call:
// the same facts as an HTTP request's (exchange.ts), with `protocol: grpc`. A Publish is one
// entry; a Subscribe stream is one entry too, emitted when the stream ends, with what it
// delivered: the items since its last discontinuity (consecutive numbers on one page, so the
// judge reads its end as it reads a poll's), the last discontinuity, and `delivered` in all.
// Gathered only while someone listens to `request` events, as for HTTP.

export type { AdminOperation } from '../requests.js';

/** One gRPC call being recorded; every method is a no-op once it has ended. */
export interface CallRecord {
  /** Who called (authenticated), or the credential refused. */
  client(credential: string, principal: Principal | undefined): void;
  refused(credential: string): void;
  decided(effect: Effect): void;
  item(sequenceNumber: number, page: number): void;
  discontinuity(gap: Discontinuity): void;
  /** Ends the record: with an error, the client gone (cancelled), or done; emits it once. */
  end(outcome: { error?: unknown; clientGone?: boolean }): void;
}

/** A record that keeps nothing: while nobody listens, and for calls that are not journalled. */
export const NO_RECORD: CallRecord = {
  client() {},
  refused() {},
  decided() {},
  item() {},
  discontinuity() {},
  end() {},
};

export interface CallRecorder {
  open(call: {
    /** publish, subscribe; or the SDK set-up's calls: generateDisposableToken, createCache, ... */
    operation: ServiceOperation | AdminOperation | CacheOperation | (typeof JOURNALLED_AS)[keyof typeof JOURNALLED_AS];
    path: string;
    peer: string;
    cache: string | null;
    topic: string | null;
    cursor: SubscribeCursor | null;
    credentialPresent: boolean;
  }): CallRecord;
}

/** The most peers the recorder numbers before it starts again from an empty map (ids keep increasing). */
const MAX_PEERS = 10_000;

export function callRecorder(events: EmulatorEvents, clock: Clock, digest: ClientDigest): CallRecorder {
  const peers = new Map<string, number>();
  let lastConnection = 0;
  const connectionOf = (peer: string): number => {
    let id = peers.get(peer);
    if (id === undefined) {
      if (peers.size >= MAX_PEERS) peers.clear();
      peers.set(peer, (id = ++lastConnection));
    }
    return id;
  };

  return {
    open(call) {
      if (!events.listens('request')) return NO_RECORD;
      const opened = performance.now();
      const facts: ExchangeFacts = openedFacts({
        protocol: 'grpc',
        plane: 'service',
        operation: call.operation,
        method: 'POST',
        path: call.path,
        at: clock.now(),
        connectionId: connectionOf(call.peer),
        cache: call.cache === null ? null : hidden(call.cache),
        topic: call.topic === null ? null : hidden(call.topic),
        cursor: call.cursor,
        credentialPlace: call.credentialPresent ? 'header' : 'none',
      });
      const streaming = call.operation === 'subscribe';
      // The items since the last discontinuity: the first and how many (kept as two numbers, whatever the stream's length).
      let from = 0;
      let count = 0;
      let delivered = 0;
      let ended = false;
      return {
        client(credential, principal) {
          facts.client = clientIdentity(credential, principal, digest);
        },
        refused(credential) {
          recordRefusedClient(facts, credential, digest);
        },
        decided(effect) {
          facts.decidedBy = effect.decidedBy;
          if (effect.drop) facts.dropped = true;
        },
        item(sequenceNumber, page) {
          if (count === 0 || sequenceNumber !== from + count || page !== facts.page) {
            from = sequenceNumber;
            count = 0;
          }
          count++;
          delivered++;
          facts.page = page;
        },
        discontinuity(gap) {
          facts.discontinuity = {
            lastTopicSequence: gap.last_topic_sequence,
            newTopicSequence: gap.new_topic_sequence,
            newSequencePage: gap.new_sequence_page,
          };
          count = 0;
          facts.page = null;
        },
        end({ error, clientGone }) {
          if (ended) return;
          ended = true;
          facts.durationMs = performance.now() - opened;
          if (streaming) {
            facts.waitedMs = facts.durationMs;
            facts.items = Array.from({ length: count }, (_, i) => from + i);
            facts.delivered = delivered;
          }
          if (error !== undefined) {
            const known =
              error instanceof EmulatorError ? error : new EmulatorError('internal_error', 'The emulator failed.');
            facts.status = known.status;
            recordError(facts, known);
          } else if (clientGone && !streaming) {
            facts.clientGone = true;
          } else {
            // A stream the client cancelled ended as the SDK ends it: what it delivered was delivered.
            facts.status = 200;
            facts.clientGone = clientGone === true;
          }
          events.emit({ kind: 'request', at: facts.at, record: facts });
        },
      };
    },
  };
}
