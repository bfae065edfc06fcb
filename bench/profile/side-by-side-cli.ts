import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ratioOf, type Contender } from '../figures/figure.js';
import { cpuPerRequestUs, interleavedRounds, rateOf } from '../figures/interleaved.js';
import { bFastify, publishRounds } from '../figures/throughput.js';

// Several builds of the emulator (or one build with several settings) and B-fastify, loaded in
// turn in the same rounds as the throughput figure: how knock-out tables (one step taken out at a
// time) are measured. Each build is a copy of `dist/` (a hand-edited
// one, to take a step out); each is compared with B-fastify in the same run, so the copies are
// compared with each other.
//
// node .tmp/bench-build/bench/profile/side-by-side-cli.js [--runs N] [--in-process] [--budget-baseline]
//   NAME=DIR[@SETTINGS_JSON] ...
//   e.g. ref=dist 'off=dist@{"journalSize":0,"controlPlane":false}' noguard=.tmp/noguard
//
// Each build runs as the CLI runs it, V8's inlining budget set (emulator/inlining-budget.ts);
// --in-process leaves the budget alone, as `startEmulator` in an app's process does.
// --budget-baseline adds B-fastify with the CLI's budget: how much of the budget's gain a bare
// fastify route gets too.

interface Build {
  name: string;
  dist: string;
  settings: Record<string, unknown>;
}

function buildOf(argument: string): Build {
  const [name, rest] = argument.split(/=(.*)/s) as [string, string | undefined];
  if (!name || !rest) throw new Error(`not NAME=DIR[@SETTINGS_JSON]: '${argument}'`);
  const at = rest.indexOf('@');
  const dist = at === -1 ? rest : rest.slice(0, at);
  let settings: Record<string, unknown> = {};
  try {
    if (at !== -1) settings = JSON.parse(rest.slice(at + 1)) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`settings of '${name}' are not JSON (${(error as Error).message})`);
  }
  if (!existsSync(resolve(dist, 'emulator/index.js'))) throw new Error(`no built emulator in '${dist}'`);
  return { name, dist: resolve(dist), settings };
}

const switches = ['--in-process', '--budget-baseline'];
const given = process.argv.slice(2);
const inProcess = given.includes('--in-process');
const budgetBaseline = given.includes('--budget-baseline');
const args = given.filter((arg) => !switches.includes(arg));
const runsAt = args.indexOf('--runs');
const rounds = runsAt === -1 ? 8 : Number.parseInt(args[runsAt + 1] ?? '', 10);
const usage = (why: string): never => {
  process.stderr.write(
    `${why}usage: side-by-side-cli [--runs N] [--in-process] [--budget-baseline] NAME=DIR[@SETTINGS_JSON] ...\n`,
  );
  process.exit(2);
};
let builds: Build[] = [];
try {
  builds = args.filter((_, i) => runsAt === -1 || (i !== runsAt && i !== runsAt + 1)).map(buildOf);
} catch (error) {
  usage(`${(error as Error).message}\n`);
}
if (!(rounds > 0)) usage(`--runs needs a whole number above 0, not '${args[runsAt + 1] ?? ''}'\n`);
if (builds.length === 0) usage('no build given\n');
const names = builds.map((build) => build.name);
if (new Set([...names, bFastify.name]).size !== names.length + 1)
  usage(`each build needs a name of its own, other than '${bFastify.name}'\n`);

const contenders: Contender[] = [
  ...builds.map((build): Contender => ({
    name: build.name,
    spec: {
      kind: 'ours',
      probes: false,
      emulatorModule: `${build.dist}/emulator/index.js`,
      settings: build.settings,
      inliningBudget: !inProcess,
    },
  })),
  ...(budgetBaseline
    ? [
        {
          name: 'b-fastify-budget',
          spec: { ...bFastify.spec, inliningBudget: true, emulatorModule: `${builds[0]!.dist}/emulator/index.js` },
        },
      ]
    : []),
  bFastify,
];
const totals = await interleavedRounds(
  contenders,
  publishRounds(rounds),
  (message) => process.stderr.write(`[side-by-side] ${message}\n`),
  'side-by-side',
);
const baseline = totals.at(-1)!;
for (const [k, contender] of contenders.entries()) {
  const mine = totals[k]!;
  const ratio = ratioOf(rateOf(mine), rateOf(baseline));
  process.stdout.write(
    `${contender.name.padEnd(16)} ${rateOf(mine).toFixed(0).padStart(7)} req/s  ${ratio === null ? '—' : `${ratio.toFixed(3)}×`} of B-fastify  ` +
      `${cpuPerRequestUs(mine).toFixed(1)} µs CPU per publish\n`,
  );
}
