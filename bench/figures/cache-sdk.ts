import type { BenchChild } from '../ipc.js';
import type { CacheCall } from '../load/sdk-child.js';
import { median } from '../stats.js';
import { notMeasured, ratioOf, type BenchContext, type Figure, type FigureResult } from './figure.js';
import { sdkRounds } from './sdk-rounds.js';

// The SDK's cache calls over the gRPC door (@gomomento/sdk's CacheClient, load/sdk-child.ts, its
// own process) side by side with B-grpc (baselines/b-grpc.ts: the least `cache_client.Scs` on the
// same grpc-js and generated code: maps, no TTLs, no bounds, no permissions): get and set, and one
// write and one read of each collection type, each loaded in turn for a few seconds with 16 calls
// in flight. Measured, not judged: the emulator does what the service does around each call
// (credential, cache, permission, faults and limits when on, the journal, expiry, bounds).

const SECONDS = 2;
const CONCURRENCY = 16;
const CALLS: CacheCall[] = [
  'set',
  'get',
  'dictionarySetField',
  'dictionaryFetch',
  'setAddElement',
  'setFetch',
  'listPushBack',
  'listFetch',
  'sortedSetPutElement',
  'sortedSetFetchByRank',
];

type Rates = Record<CacheCall, { rate: number; failures: number }>;

async function measure(sdk: BenchChild, endpoint: string, contender: string, log: (m: string) => void): Promise<Rates> {
  const rates = {} as Rates;
  for (const call of CALLS) {
    const done = await sdk.call<{ count: number; failures: number; seconds: number }>('cacheCalls', {
      endpoint,
      seconds: SECONDS,
      concurrency: CONCURRENCY,
      call,
    });
    rates[call] = { rate: done.count / done.seconds, failures: done.failures };
  }
  log(`cache-sdk: ${contender} ${CALLS.map((c) => `${c} ${rates[c].rate.toFixed(0)}/s`).join(', ')}`);
  return rates;
}

export const cacheSdk: Figure = {
  name: 'cache-sdk',
  async run(context: BenchContext): Promise<FigureResult> {
    const rowOf = (call: CacheCall) => ({
      figure: `SDK ${call} throughput over gRPC, ${CONCURRENCY} in flight`,
      unit: 'req/s',
      baselineName: 'B-grpc',
      target: 'measured',
    });
    const results = await sdkRounds(context, (sdk, endpoint, contender) =>
      measure(sdk, endpoint, contender, context.log),
    );
    if (results === undefined)
      return {
        rows: CALLS.map((call) => notMeasured({ ...rowOf(call), baseline: null }, 'the emulator is not built')),
        details: {},
      };
    const rate = (name: string, call: CacheCall) => median(results.get(name)!.map((r) => r[call].rate));
    const failures = (call: CacheCall) => [...results.values()].flat().reduce((n, r) => n + r[call].failures, 0);
    return {
      rows: CALLS.map((call) => ({
        ...rowOf(call),
        ours: rate('ours', call),
        baseline: rate('b-grpc', call),
        ratio: ratioOf(rate('ours', call), rate('b-grpc', call)),
        pass: null,
        ...(failures(call) > 0 ? { note: `${failures(call)} calls answered an error` } : {}),
      })),
      details: { seconds: SECONDS, concurrency: CONCURRENCY, rounds: Object.fromEntries(results) },
    };
  },
};
