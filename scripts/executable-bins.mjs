// Makes every bin of package.json executable, after each build (`npm run build`). tsc writes them
// without the executable bit. npm sets it when it links a bin on install, but not when npx reuses
// a cache entry that links to a checkout (a repository cloned again into the same folder): then
// `npx topics-emulator` fails with "Permission denied". Plain JavaScript: it runs before tsx would.
// Usage: node scripts/executable-bins.mjs [package folder, default: this repository]
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const { bin = {} } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
for (const file of typeof bin === 'string' ? [bin] : Object.values(bin)) {
  const path = resolve(root, file);
  chmodSync(path, statSync(path).mode | 0o111);
}
