/** Which server a bench child runs, and for the emulator, with which settings. */
export type ServerKind = 'ours' | 'b-fastify' | 'b-ref';

export interface ServerSpec {
  kind: ServerKind;
  /** startEmulator settings for `ours` (port, host and logLevel are set by the child). */
  settings?: Record<string, unknown>;
  /** The built emulator module, when not the repository's dist/emulator/index.js. */
  emulatorModule?: string;
}
