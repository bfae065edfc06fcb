import autocannon from 'autocannon';
import { devCredentials, publishHeaders, topicPath } from '../load/publisher.js';
import { ServerProcess } from '../servers/server-process.js';
import type { ServerSpec } from '../servers/server-spec.js';
import { median } from '../stats.js';
import { layers } from './layered-fastify.js';

// Server CPU per publish at a paced 2,000/s, for B-fastify with the emulator's layers added one
// at a time, then for the emulator itself: where the emulator's extra CPU per publish goes.
// Paced, not saturated: CPU time per request is then the server's own cost, whatever else the
// machine is doing.

const rate = 2_000;
const seconds = 3;
const rounds = 5;

async function cpuPerPublish(spec: ServerSpec): Promise<number> {
  const server = await ServerProcess.start(spec);
  try {
    const options = {
      url: `${server.url}${topicPath(devCredentials, 'bench-layers')}`,
      connections: 20,
      method: 'POST',
      headers: publishHeaders(devCredentials),
      body: 'hello from the topics-emulator bench',
      overallRate: rate,
    };
    await autocannon({ ...options, duration: 1 });
    const before = await server.cpuMs();
    const result = await autocannon({ ...options, duration: seconds });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(
        `${spec.kind} ${spec.layers?.join('+') ?? ''}: ${result.non2xx} non-2xx, ${result.errors} errors`,
      );
    return (((await server.cpuMs()) - before) * 1000) / result.requests.total;
  } finally {
    await server.stop();
  }
}

export async function layerCosts(ours: ServerSpec, log: (message: string) => void): Promise<string> {
  const variants: Array<{ name: string; spec: ServerSpec }> = layers.map((layer, i) => ({
    name: `+ ${layer}`,
    spec: { kind: 'layered', layers: layers.slice(0, i + 1) },
  }));
  variants.unshift({ name: 'B-fastify (no layer)', spec: { kind: 'layered', layers: [] } });
  variants.push({ name: 'the emulator', spec: ours });
  const samples = new Map<string, number[]>(variants.map((variant) => [variant.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
      const us = await cpuPerPublish(variant.spec);
      samples.get(variant.name)?.push(us);
      log(`layers: round ${round + 1}: ${variant.name}: ${us.toFixed(1)} µs`);
    }
  }
  const lines = ['| server | CPU per publish | added by this layer |', '|---|---:|---:|'];
  let previous: number | undefined;
  for (const variant of variants) {
    const us = median(samples.get(variant.name) ?? []);
    const added = previous === undefined ? '' : `${us - previous >= 0 ? '+' : ''}${(us - previous).toFixed(1)} µs`;
    lines.push(`| ${variant.name} | ${us.toFixed(1)} µs | ${added} |`);
    previous = us;
  }
  return `## Server CPU per publish at ${rate.toLocaleString('en')}/s, median of ${rounds} × ${seconds} s\n\n${lines.join('\n')}\n`;
}
