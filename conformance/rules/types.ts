// What a rule is. Every rule has an id, a title, a level, and the sentence it enforces;
// it is checked in one of three ways: by sending its own requests (active), on every
// response the suite sees (response), or by the stream properties (stream).
import type { Contract } from '../contract.js';
import type { ControlPlane } from '../control.js';
import type { Exchange } from '../exchange.js';
import type { ResolvedOptions } from '../options.js';
import type { Target } from '../target.js';

/**
 * documented: the contract says so; a failure fails the run.
 * observed: what the live service is known to do (service-facts) or the emulator chose
 * where the contract is silent; reported as a warning, never a failure.
 * control: a documented property checked under conditions only the emulator's control
 * plane can create (page changes, 429s, token expiry, resets); a failure fails the run.
 * observation: a question public sources leave open (where a first request starts, whether a
 * discontinuity ever comes alone, which content types are accepted): the rule records what the
 * endpoint does (`note`), so that one run against the live service settles it; never a failure.
 */
export type Level = 'documented' | 'observed' | 'control' | 'observation';

/** What an active rule needs that the run may not have; without it the rule is skipped. */
export type Requirement = 'restricted-token' | 'expired-token' | 'control';

export interface Counterexample {
  /** The shrunk scenario, one line per step. */
  steps: string[];
  /** `--replay` value that runs exactly this scenario again. */
  replay: string;
  /** How many generated runs passed before this one failed, and shrink steps taken. */
  runs: number;
  shrinks: number;
}

export interface Finding {
  message: string;
  /** Exchanges that reproduce it, in the order they were sent. */
  exchanges: Exchange[];
  counterexample?: Counterexample;
}

interface RuleBase {
  id: string;
  title: string;
  level: Level;
  /** The sentence of the contract (or service-facts / OpenAPI note) it enforces, quoted. */
  source: string;
}

export interface ActiveRule extends RuleBase {
  kind: 'active';
  needs?: Requirement[];
  run(ctx: RuleContext): Promise<void>;
}

export interface ResponseRule extends RuleBase {
  kind: 'response';
  /** Problems with this exchange; null when the rule does not apply to it. */
  inspect(exchange: Exchange, contract: Contract): string[] | null;
}

export interface StreamRule extends RuleBase {
  kind: 'stream';
}

export type Rule = ActiveRule | ResponseRule | StreamRule;

/** Thrown by `ctx.skip()`: the rule could not run here, and says why. */
export class RuleSkipped extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'RuleSkipped';
  }
}

export interface RuleContext {
  rule: ActiveRule;
  target: Target;
  contract: Contract;
  options: ResolvedOptions;
  /** The emulator's control plane, when detected; null against anything else. */
  control: ControlPlane | null;
  /** Records a failure (a warning for observed rules) and lets the rule go on. */
  fail(message: string, exchanges?: Exchange[]): void;
  /** Records a failure unless `ok`; returns `ok`. */
  expect(ok: boolean, message: string, exchanges?: Exchange[]): boolean;
  /** A short line shown next to a passing rule; for an observation rule, what it observed. */
  note(text: string): void;
  skip(reason: string): never;
}
