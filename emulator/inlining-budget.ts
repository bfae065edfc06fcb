import { setFlagsFromString } from 'node:v8';

// V8's optimising compiler inlines the functions a hot function calls until their bytecode adds
// up to a budget: 920 bytes by default (Node 20, 22 and 24 alike). A publish runs about fifteen
// short steps of the emulator's inside fastify's and Node's own code, and those steps use up the
// budget of the hot functions that call them (fastify's hook runner and route handler, Node's
// HTTP parser callbacks), so Node's stream and HTTP code they would otherwise inline stays a
// call: `Readable.push`, `resOnFinish`, `addListener`, `Writable.write`, ... (seen with
// `--trace-turbo-inlining`). That is why every step of the path cost more than its own samples in
// a profile (BENCHMARKS.md). A budget of four times the default puts them back:
// publish throughput +0.06× of B-fastify on Node 20 and 22, +0.03× on Node 24. Above V8's absolute cap (4,600 bytes) a larger budget changes nothing.
//
// Node's documentation warns that a V8 flag changed after start-up may do nothing or misbehave.
// This one is a number TurboFan reads each time it plans a compilation, set before any request is
// served; test/emulator/inlining-budget.test.ts proves it takes effect on every Node the CI runs.
//
// With a Redis store it is left alone: there a publish waits on Redis, and the same budget read
// ~12 % slower (three runs of the Redis figure each way).
//
// Only the CLI's process (`npx topics-emulator`, the Docker image) sets it: changing V8's flags
// is the business of whoever owns the process, so `startEmulator` in an app's or a test runner's
// process leaves them alone. A budget given to Node on its command line is kept as given (Node
// refuses this flag in NODE_OPTIONS): `node --max-inlined-bytecode-size-cumulative=920
// node_modules/.bin/topics-emulator` runs the CLI with V8's default.

/** The V8 flag of the cumulative inlining budget, in bytes of bytecode. */
export const INLINING_BUDGET_FLAG = '--max-inlined-bytecode-size-cumulative';
/** The budget the CLI sets: four times V8's default of 920, below its absolute cap of 4,600. */
export const INLINING_BUDGET = 3680;

/**
 * The budget the CLI sets in a process Node started with these flags, serving topics from this
 * store: none when Node was given one (V8 reads `-` and `_` alike), or when the topics live in
 * Redis, where the wider budget measured slower (BENCHMARKS.md).
 */
export function inliningBudgetFor(execArgv: readonly string[], store: string): number | null {
  const given = execArgv.some((flag) => flag.replaceAll('_', '-').split('=')[0] === INLINING_BUDGET_FLAG);
  return given || store !== 'memory' ? null : INLINING_BUDGET;
}

/** Sets V8's inlining budget for this process when the CLI would (`inliningBudgetFor`); returns the budget set, or null. */
export function widenInliningBudget(store: string): number | null {
  const budget = inliningBudgetFor(process.execArgv, store);
  if (budget !== null) setFlagsFromString(`${INLINING_BUDGET_FLAG}=${budget}`);
  return budget;
}
