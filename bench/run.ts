import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { cacheSdk } from './figures/cache-sdk.js';
import { conformance } from './figures/conformance.js';
import { fanout } from './figures/fanout.js';
import { grpc } from './figures/grpc.js';
import { oursSpec, type BenchContext, type BenchOptions, type Figure, type Row } from './figures/figure.js';
import { idle } from './figures/idle.js';
import { journal } from './figures/journal.js';
import { latency } from './figures/latency.js';
import { memoryLongRun } from './figures/memory-long-run.js';
import { redis } from './figures/redis.js';
import { bFastifyContender, emulatorContender, startup } from './figures/startup.js';
import { throughput } from './figures/throughput.js';
import { cache } from './figures/cache.js';
import { historyCheck } from './figures/history-check.js';
import { verdict } from './figures/verdict.js';
import { SwarmProcess } from './load/swarm-process.js';
import { layerCosts } from './profile/layer-costs.js';
import { profilePath, profileStartup, type ProfiledPath } from './profile/profile-path.js';
import { emulatorCli, emulatorModule } from './paths.js';
import type { ServerSpec } from './servers/server-spec.js';
import { describeMachine } from './report/machine.js';
import { formatTable } from './report/table.js';

// `npm run bench [-- --json [PATH]] [--long] [--runs N] [--only a,b]`: every figure,
// each side by side with its baseline in the same run, as one table (or JSON).
// Start-up runs first, while nothing else of the bench is alive.
// `npm run bench -- --profile publish|fanout|startup`: CPU profiles of the emulator and its baseline
// on that path instead; `--profile layers`: CPU per publish as the emulator's layers are added to
// B-fastify one by one.
// `--dist DIR` measures the emulator built in DIR instead of dist/ (to try a change side by side).

const figures: Figure[] = [
  startup,
  throughput,
  cache,
  journal,
  latency,
  fanout,
  idle,
  memoryLongRun,
  conformance,
  historyCheck,
  verdict,
  grpc,
  cacheSdk,
  redis,
];

interface Arguments {
  options: BenchOptions;
  json: boolean;
  jsonPath: string | undefined;
  only: string[] | undefined;
  profile: ProfiledPath | undefined;
  /** A built emulator other than dist/ (e.g. an experiment's dist), for comparisons. */
  distDir: string | undefined;
}

function parseArguments(argv: string[]): Arguments {
  const parsed: Arguments = {
    options: { long: false, runs: 3 },
    json: false,
    jsonPath: undefined,
    only: undefined,
    profile: undefined,
    distDir: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    const value = argv[i + 1];
    if (argument === '--long') parsed.options.long = true;
    else if (argument === '--json') {
      parsed.json = true;
      if (value !== undefined && !value.startsWith('--')) {
        parsed.jsonPath = value;
        i++;
      }
    } else if (argument === '--runs' && value !== undefined) {
      parsed.options.runs = Math.max(1, Number.parseInt(value, 10));
      i++;
    } else if (
      argument === '--profile' &&
      (value === 'publish' || value === 'fanout' || value === 'startup' || value === 'layers')
    ) {
      parsed.profile = value;
      i++;
    } else if (argument === '--dist' && value !== undefined) {
      parsed.distDir = resolve(process.env.INIT_CWD ?? process.cwd(), value);
      i++;
    } else if (argument === '--only' && value !== undefined) {
      parsed.only = value.split(',');
      i++;
    } else {
      const names = figures.map((figure) => figure.name).join(',');
      process.stderr.write(
        `usage: npm run bench -- [--json [PATH]] [--long] [--runs N] [--only ${names}] [--dist DIR] | --profile publish|fanout|startup|layers\n`,
      );
      process.exit(2);
    }
  }
  return parsed;
}

const args = parseArguments(process.argv.slice(2));
const machine = describeMachine();
const log = (message: string): void => {
  process.stderr.write(`[bench] ${message}\n`);
};
const oursModule = args.distDir === undefined ? emulatorModule : join(args.distDir, 'emulator', 'index.js');
const oursCli = args.distDir === undefined ? emulatorCli : join(args.distDir, 'cli', 'topics-emulator.js');
const built = existsSync(oursModule) && existsSync(oursCli);
if (!built) log(`the emulator is not built (${oursModule}): measuring the baselines only; run \`npm run build\``);
if (machine.loadAverage > machine.cpus / 2)
  log(`load average ${machine.loadAverage.toFixed(2)} on ${machine.cpus} CPUs: others are busy, figures will be noisy`);

const swarm = await SwarmProcess.start();
const context: BenchContext = {
  options: args.options,
  swarm,
  ours: built ? oursSpec(oursModule) : undefined,
  emulatorCli: built ? oursCli : undefined,
  log,
};
if (args.profile !== undefined) {
  try {
    if (context.ours === undefined || context.emulatorCli === undefined)
      throw new Error('the emulator is not built: nothing to profile');
    if (args.profile === 'layers') {
      process.stdout.write(await layerCosts(context.ours, log));
    } else if (args.profile === 'startup') {
      for (const contender of [emulatorContender(context.emulatorCli), bFastifyContender()])
        process.stdout.write(`${await profileStartup(contender)}\n`);
    } else {
      const baseline: ServerSpec = { kind: args.profile === 'publish' ? 'b-fastify' : 'b-ref' };
      for (const spec of [context.ours, baseline])
        process.stdout.write(`${await profilePath(args.profile, spec, swarm, log)}\n`);
    }
  } finally {
    await swarm.stop();
  }
  process.exit(0);
}

const rows: Row[] = [];
const details: Record<string, unknown> = {};
let failed = false;
const started = Date.now();
try {
  for (const figure of figures.filter((f) => args.only === undefined || args.only.includes(f.name))) {
    const figureStarted = Date.now();
    try {
      const result = await figure.run(context);
      rows.push(...result.rows);
      details[figure.name] = { ...result.details, seconds: (Date.now() - figureStarted) / 1000 };
    } catch (error) {
      failed = true;
      const message = error instanceof Error ? error.message : String(error);
      log(`${figure.name} failed: ${message}`);
      rows.push({
        figure: figure.name,
        unit: '',
        ours: null,
        baseline: null,
        baselineName: '—',
        ratio: null,
        target: '',
        pass: false,
        note: `bench error: ${message}`,
      });
    }
  }
} finally {
  await swarm.stop();
}

const report = {
  machine,
  options: args.options,
  emulatorBuilt: built,
  seconds: (Date.now() - started) / 1000,
  rows,
  details,
};
const table = formatTable(rows, machine);
if (args.json && args.jsonPath === undefined) {
  process.stderr.write(`${table}\n`);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  process.stdout.write(`${table}\n`);
  if (args.jsonPath !== undefined) {
    // npm runs scripts from the package root; a relative path means relative to where npm was run.
    const path = resolve(process.env.INIT_CWD ?? process.cwd(), args.jsonPath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
    log(`JSON written to ${path}`);
  }
}
log(`done in ${report.seconds.toFixed(0)} s`);
process.exitCode = failed ? 1 : 0;
