// The package's version, read from its package.json (package-root.ts).
export { packageVersion as version } from './package-root.js';
