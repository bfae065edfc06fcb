import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { postRequest } from '../load/keep-alive-load.js';
import { devCredentials, publishHeaders, topicPath } from '../load/publisher.js';
import { emulatorModule } from '../paths.js';
import { notMeasured, ratioOf, withSettings, type BenchContext, type Figure, type FigureResult } from './figure.js';
import { interleavedRounds, rateOf } from './interleaved.js';

// The cache HTTP API's throughput beside the topics publish, in the same run and the same way
// (the throughput figure's 100 keep-alive connections, servers loaded in turn, fresh processes
// each round): Set Value (PUT of a 36-byte value, one key) and Get Value (a hit on an item the
// emulator loads from a state file at start) against a publish of the same body. Measured, not
// judged: a cache call does what a publish does at the door (authentication, the route's
// validators) and less behind it.

const connections = 100;
const minRounds = 4;
const body = 'hello from the topics-emulator bench';
const key = 'bench-item';

function request(method: string, path: string, url: string, payload = ''): Buffer {
  const { host } = new URL(url);
  const length = method === 'GET' ? '' : `content-length: ${Buffer.byteLength(payload)}\r\n`;
  return Buffer.from(
    `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nauthorization: ${devCredentials.apiKey}\r\ncontent-type: text/plain\r\n${length}\r\n${payload}`,
  );
}

/** A state file holding the item the Get Value load reads (made by the built emulator itself). */
async function stateFileWithItem(dir: string, module: string): Promise<string> {
  const emulator = (await import(pathToFileURL(module).href)) as {
    startEmulator(settings: Record<string, unknown>): Promise<{
      url: string;
      apiKey: string;
      snapshot(): unknown;
      close(): Promise<void>;
    }>;
  };
  const running = await emulator.startEmulator({ host: '127.0.0.1', port: 0, logLevel: 'silent' });
  try {
    await fetch(`${running.url}/cache/default-cache?key=${key}&ttl_seconds=31536000`, {
      method: 'PUT',
      headers: { authorization: running.apiKey },
      body,
    });
    const file = join(dir, 'state.json');
    writeFileSync(file, JSON.stringify(running.snapshot()));
    return file;
  } finally {
    await running.close();
  }
}

export const cache: Figure = {
  name: 'cache',
  async run(context: BenchContext): Promise<FigureResult> {
    const rows = [
      { figure: 'cache HTTP API: Set Value throughput (PUT, 100 connections)', unit: 'req/s' },
      { figure: 'cache HTTP API: Get Value throughput (a hit, 100 connections)', unit: 'req/s' },
    ].map((row) => ({ ...row, baselineName: 'topics publish', target: 'measured' }));
    if (context.ours === undefined)
      return {
        rows: rows.map((row) => notMeasured({ ...row, baseline: null }, 'the emulator is not built')),
        details: {},
      };
    const dir = mkdtempSync(join(tmpdir(), 'bench-cache-'));
    try {
      const stateFile = await stateFileWithItem(dir, context.ours.emulatorModule ?? emulatorModule);
      const spec = withSettings({ ...context.ours, probes: false }, { stateFile })!;
      const item = `/cache/default-cache?key=${key}`;
      const [publish, set, get] = await interleavedRounds(
        [
          { name: 'publish', spec },
          { name: 'cache-set', spec },
          { name: 'cache-get', spec },
        ],
        {
          rounds: Math.max(context.options.runs, minRounds),
          turns: 8,
          turnMs: 300,
          warmUpMs: 1500,
          connections,
          request: (url, contender) =>
            contender === 0
              ? postRequest(url, topicPath(devCredentials, 'bench-cache'), publishHeaders(devCredentials), body)
              : contender === 1
                ? request('PUT', `${item}&ttl_seconds=60`, url, body)
                : request('GET', item, url),
        },
        context.log,
        'cache',
      );
      const failures = [...publish!, ...set!, ...get!].reduce((sum, round) => sum + round.failures, 0);
      const note = failures > 0 ? `${failures} failed requests or connections` : undefined;
      return {
        rows: [set!, get!].map((ours, i) => ({
          ...rows[i]!,
          ours: rateOf(ours),
          baseline: rateOf(publish!),
          ratio: ratioOf(rateOf(ours), rateOf(publish!)),
          pass: null,
          ...(note ? { note } : {}),
        })),
        details: {},
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
