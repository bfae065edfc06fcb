import { startBFastify } from './b-fastify.js';
import { startBRef } from './b-ref.js';

// Starts one baseline on its own, as the emulator's CLI starts the emulator, so that start-up can
// be timed from process spawn to first response the same way for both.
// Usage: node baselines/cli.js b-fastify|b-ref [--port N]

const [kind, flag, value] = process.argv.slice(2);
const port = flag === '--port' ? Number(value) : 0;
const start = kind === 'b-ref' ? startBRef : kind === 'b-fastify' ? startBFastify : undefined;
if (start === undefined) {
  process.stderr.write('usage: cli b-fastify|b-ref [--port N]\n');
  process.exit(2);
}
const server = await start({ port });
process.stdout.write(`${kind} listening\nBase URL: ${server.url}\n`);
const stop = (): void => {
  void server.close().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
