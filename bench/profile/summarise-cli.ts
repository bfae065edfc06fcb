import { formatSummary, summariseProfile } from './summarise.js';

// node .tmp/bench-build/bench/profile/summarise-cli.js FILE.cpuprofile [TOP]
const [file, top] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: summarise-cli FILE.cpuprofile [TOP]\n');
  process.exit(2);
}
process.stdout.write(`${formatSummary(summariseProfile(file, top === undefined ? 20 : Number(top)))}\n`);
