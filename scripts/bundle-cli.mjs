// Bundles the CLI (dist/emulator/cli.js, as tsc wrote it) with its dependencies into dist/cli/,
// after each build (`npm run build`): `npx topics-emulator` then loads a few files instead of
// hundreds of modules, which is most of its start-up. What a run may not use stays apart, in
// chunks loaded on first use (the server itself while --help runs; gRPC, Redis, TLS, the exam).
// Modules loaded through createRequire (the provider's generated gRPC code, Ajv, yaml, prom-client,
// node-forge) are not bundled: they load from node_modules when used. The package's own files
// (the dashboard, the Redis scripts, package.json) are found from the package root
// (emulator/package-root.ts), wherever the chunks are.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist/cli`, { recursive: true, force: true });
await build({
  entryPoints: { 'topics-emulator': `${root}dist/emulator/cli.js` },
  outdir: `${root}dist/cli`,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // The CommonJS modules inside (fastify, pino, ...) call require for Node's own modules.
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
