import { createHook } from 'node:async_hooks';

// Every `process.nextTick` makes its tick object with one object literal, and a request makes
// about six (Node's stream and HTTP code). V8 keeps the hidden classes (maps) of that literal's
// shape only while something uses them: between ticks no tick object is alive, so a full garbage
// collection may collect them, and the next tick makes new ones. The literal's property stores
// then see a new map each time; after four they are megamorphic, and from then on (Node 20 and 22
// at least) every tick object is built through V8's runtime, not the optimised code: 15–25 % of
// the emulator's publish throughput in a process that falls into it, which depends on when its
// full collections happen (BENCHMARKS.md). One tick object kept alive keeps its
// maps, so the stores stay monomorphic. Process-wide, so only the CLI's server command, which
// owns its process, does it; startEmulator() in someone else's process leaves V8 alone.

let kept: object | undefined;

/** Keeps one of `process.nextTick`'s tick objects alive for the life of the process; once per process. */
export function keepTickShape(): void {
  if (kept !== undefined) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject' && kept === undefined) kept = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
}
