// Builds the dashboard (dashboard/) into dist/dashboard/: one minified ES module with preact and
// htm bundled in, the stylesheet, and the page. The emulator serves these files at
// /_emulator/ui; nothing is fetched at run time. Prints the sizes (docs/dashboard.md's figures,
// checked by test/docs/figures.test.ts, which builds into a directory of its own: the argument).
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = process.argv[2] ? `${process.argv[2]}/` : `${root}dist/dashboard/`;
mkdirSync(out, { recursive: true });

const common = {
  bundle: true,
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  target: ['chrome100', 'firefox100', 'safari15'],
};
await build({ ...common, entryPoints: [`${root}dashboard/main.ts`], outfile: `${out}dashboard.js`, format: 'esm' });
await build({ ...common, entryPoints: [`${root}dashboard/dashboard.css`], outfile: `${out}dashboard.css` });
writeFileSync(`${out}index.html`, readFileSync(`${root}dashboard/index.html`));

let total = 0;
let gzipped = 0;
for (const name of ['index.html', 'dashboard.js', 'dashboard.css']) {
  const bytes = readFileSync(`${out}${name}`);
  total += statSync(`${out}${name}`).size;
  gzipped += gzipSync(bytes).length;
}
process.stdout.write(
  `dist/dashboard: ${(total / 1024).toFixed(1)} KiB (${(gzipped / 1024).toFixed(1)} KiB gzipped; bytes ${total} ${gzipped})\n`,
);
