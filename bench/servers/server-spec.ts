/** Which server a bench child runs, and for the emulator, with which settings. */
export type ServerKind = 'ours' | 'b-fastify' | 'b-ref' | 'layered' | 'b-grpc';

export interface ServerSpec {
  kind: ServerKind;
  /** startEmulator settings for `ours` (port, host and logLevel are set by the child). */
  settings?: Record<string, unknown>;
  /** For `layered`: the emulator's layers added to B-fastify (profile/layered-fastify.ts). */
  layers?: string[];
  /** The built emulator module, when not the repository's dist/emulator/index.js. */
  emulatorModule?: string;
  /**
   * Whether the child counts requests through Node's HTTP diagnostics channels (inflight,
   * timePosts): true unless false. Every request pays for the subscribers, so a figure that does
   * not ask turns them off.
   */
  probes?: boolean;
  /**
   * Whether the child tunes V8 as the CLI's server command tunes its own process (the built
   * emulator's inlining-budget.js, with topics in memory only, and tick-shape.js) before its server
   * starts: by default for `ours`, which is then measured as `npx topics-emulator` runs it; false
   * measures it as started in an app's own process. A baseline given true runs tuned the same way
   * (like with like).
   */
  inliningBudget?: boolean;
}
